/** Languages the site is shown in (spec section 9). Korean is the default. */
export const LANGUAGES = ['ko', 'en', 'ja'] as const;

export type Lang = (typeof LANGUAGES)[number];

export const DEFAULT_LANG: Lang = 'ko';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
