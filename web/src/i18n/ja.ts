/**
 * The whole Japanese catalogue, both parts at once, for tests and type checks: the app loads the shell part and
 * the pages part apart (catalogues.ts), so app code imports neither this module nor the parts directly.
 */
import { jaPages } from './pages/ja';
import { jaShell } from './shell/ja';
import type { Catalogue } from './catalogue';

export const ja: Catalogue = { ...jaShell, ...jaPages };
