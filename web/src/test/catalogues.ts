import type { Catalogue } from '../i18n/catalogues';
import { en } from '../i18n/en';
import { ja } from '../i18n/ja';
import { ko } from '../i18n/ko';
import type { Lang } from '../i18n/languages';

/** Every language's catalogue at once, for tests (the app loads one at a time: i18n/catalogues.ts). */
export const catalogues: Record<Lang, Catalogue> = { ko, en, ja };
