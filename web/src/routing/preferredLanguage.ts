import { readCookie } from '../browser/cookies';
import { DEFAULT_LANG, isLang, type Lang } from '../i18n/languages';

/** Cookie that remembers the chosen language (set on login and registration). */
export const LANG_COOKIE = 'langCode';

export interface LanguageHints {
  /** Value of the langCode cookie, if any. */
  cookie?: string | undefined;
  /** navigator.languages (or [navigator.language]) in preference order. */
  browserLanguages?: readonly string[] | undefined;
}

/** First supported language whose primary subtag matches one of the browser's, in order. */
export function matchBrowserLanguage(browserLanguages: readonly string[]): Lang | undefined {
  for (const tag of browserLanguages) {
    const primary = tag.split(/[-_]/)[0]?.toLowerCase();
    if (isLang(primary)) return primary;
  }
  return undefined;
}

/** The language for a path that has none: the cookie if valid, else the browser's, else Korean. */
export function pickPreferredLanguage({ cookie, browserLanguages = [] }: LanguageHints): Lang {
  if (isLang(cookie)) return cookie;
  return matchBrowserLanguage(browserLanguages) ?? DEFAULT_LANG;
}

/** Reads the hints from the running browser. */
export function readBrowserLanguageHints(): LanguageHints {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const browserLanguages =
    nav?.languages && nav.languages.length > 0 ? nav.languages : nav?.language ? [nav.language] : [];
  return {
    cookie: typeof document === 'undefined' ? undefined : readCookie(LANG_COOKIE, document.cookie),
    browserLanguages,
  };
}

/** The language a page at `pathname` is shown in: its language prefix (in any case), or the one a redirect adds. */
export function languageOfPath(pathname: string, hints: LanguageHints): Lang {
  const first = pathname.split('/')[1]?.toLowerCase();
  return isLang(first) ? first : pickPreferredLanguage(hints);
}
