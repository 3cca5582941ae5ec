/** Localization and country fallbacks (spec section 9), in the server's order (src/api/rules.ts). */
import { COUNTRY_FALLBACK, LANGUAGE_FALLBACK } from '../api/rules';
import type { Lang } from '../i18n/languages';

/** The entry for `lang`, else for the fallback languages in turn (en, then ko); undefined when none exists. */
export function pickLocalization<T>(
  items: readonly T[] | null | undefined,
  lang: Lang,
  langOf: (item: T) => string | null | undefined = (item) => (item as { langCode?: string }).langCode,
): T | undefined {
  if (!items || items.length === 0) return undefined;
  for (const wanted of [lang, ...LANGUAGE_FALLBACK]) {
    const found = items.find((item) => langOf(item)?.toLowerCase() === wanted);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The chosen country's entry, else the fallback countries' in turn (US, then KR). */
export function pickByCountry<T>(
  items: readonly T[] | null | undefined,
  country: string,
  countryOf: (item: T) => string | null | undefined = (item) => (item as { countryCode?: string }).countryCode,
): T | undefined {
  if (!items || items.length === 0) return undefined;
  for (const wanted of [country.toUpperCase(), ...COUNTRY_FALLBACK]) {
    const found = items.find((item) => countryOf(item)?.toUpperCase() === wanted);
    if (found !== undefined) return found;
  }
  return undefined;
}
