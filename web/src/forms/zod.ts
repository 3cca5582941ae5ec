/**
 * zod as the web app uses it: without eval. The site's content security policy forbids eval, and
 * zod's just-in-time parsers would otherwise probe for it on the first parse, which the browser
 * reports as a policy violation (a console error) even though zod falls back quietly. Every
 * module imports zod from here (ESLint forbids 'zod' elsewhere), so the setting precedes any parse.
 */
import { config, z } from 'zod';

config({ jitless: true });

export { z };
