/**
 * The whole English catalogue, both parts at once, for tests and type checks: the app loads the shell part and
 * the pages part apart (catalogues.ts), so app code imports neither this module nor the parts directly.
 */
import { enPages } from './pages/en';
import { enShell } from './shell/en';
import type { Catalogue } from './catalogue';

export const en: Catalogue = { ...enShell, ...enPages };
