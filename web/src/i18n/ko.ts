/**
 * The whole Korean catalogue, both parts at once, for tests and type checks: the app loads the shell part and
 * the pages part apart (catalogues.ts), so app code imports neither this module nor the parts directly.
 */
import { koPages } from './pages/ko';
import { koShell } from './shell/ko';
import type { Catalogue } from './catalogue';

export const ko: Catalogue = { ...koShell, ...koPages };
