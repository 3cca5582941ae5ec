/** Localization fallback (spec section 9): the chosen language, then en, then ko. */
import type { Lang } from '../i18n/languages';

export const LOCALIZATION_FALLBACK: readonly Lang[] = ['en', 'ko'];

/** The entry for `lang`, else for en, else for ko; undefined when none of them exists. */
export function pickLocalization<T>(
  items: readonly T[] | null | undefined,
  lang: Lang,
  langOf: (item: T) => string | null | undefined = (item) => (item as { langCode?: string }).langCode,
): T | undefined {
  if (!items || items.length === 0) return undefined;
  for (const wanted of [lang, ...LOCALIZATION_FALLBACK]) {
    const found = items.find((item) => langOf(item)?.toLowerCase() === wanted);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Country fallback (spec section 9): the chosen country, then US, then KR. */
export function pickByCountry<T>(
  items: readonly T[] | null | undefined,
  country: string,
  countryOf: (item: T) => string | null | undefined = (item) => (item as { countryCode?: string }).countryCode,
): T | undefined {
  if (!items || items.length === 0) return undefined;
  for (const wanted of [country.toUpperCase(), 'US', 'KR']) {
    const found = items.find((item) => countryOf(item)?.toUpperCase() === wanted);
    if (found !== undefined) return found;
  }
  return undefined;
}
