/**
 * The `lang` query parameter (spec section 2): `/purchase?lang=en` or `/ko/purchase?lang=en` opens the
 * page in that language. It wins over the path's language, the langCode cookie and the browser's, and
 * is dropped from the address once applied, so that a later language switch is not undone by it.
 */
import { isLang, type Lang } from '../i18n/languages';
import { withLanguagePrefix } from './paths';

/** The supported language a query asks for, if any (any case). */
export function queriedLanguage(search: string): Lang | undefined {
  const value = new URLSearchParams(search).get('lang')?.toLowerCase();
  return isLang(value) ? value : undefined;
}

/** The query without its `lang` parameter ('' when nothing is left). */
export function withoutLangQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('lang');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Where a location with a valid `lang` query goes: the same page in that language, the parameter dropped. */
export function applyLangQuery(pathname: string, search: string, hash = ''): string | undefined {
  const lang = queriedLanguage(search);
  if (lang === undefined) return undefined;
  const segments = pathname.split('/');
  const rest = isLang(segments[1]) ? `/${segments.slice(2).join('/')}` : pathname;
  return withLanguagePrefix(lang, rest, withoutLangQuery(search), hash);
}
