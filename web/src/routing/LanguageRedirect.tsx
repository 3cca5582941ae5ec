import { Redirect } from 'wouter';
import { applyLangQuery } from './langQuery';
import { useCurrentLocation } from './location';
import { withLanguagePrefix } from './paths';
import { pickPreferredLanguage, readBrowserLanguageHints } from './preferredLanguage';

/** Sends a URL without a valid language prefix to the same URL with one (the `lang` query's, when given). */
export function LanguageRedirect() {
  const { pathname, search, hash } = useCurrentLocation();
  const lang = pickPreferredLanguage(readBrowserLanguageHints());
  return <Redirect replace to={applyLangQuery(pathname, search, hash) ?? withLanguagePrefix(lang, pathname, search, hash)} />;
}
