import type { PagesCatalogue } from './pages/ko';
import type { ShellCatalogue } from './shell/ko';

export type { PagesCatalogue, ShellCatalogue };

/** Shape every language's catalogue has: its shell part and its pages part, the Korean ones the reference. */
export type Catalogue = ShellCatalogue & PagesCatalogue;
