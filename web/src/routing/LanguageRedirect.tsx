import { Navigate, useLocation } from 'react-router-dom';
import { applyLangQuery } from './langQuery';
import { withLanguagePrefix } from './paths';
import { pickPreferredLanguage, readBrowserLanguageHints } from './preferredLanguage';

/** Sends a URL without a valid language prefix to the same URL with one (the `lang` query's, when given). */
export function LanguageRedirect() {
  const { pathname, search, hash } = useLocation();
  const lang = pickPreferredLanguage(readBrowserLanguageHints());
  return <Navigate replace to={applyLangQuery(pathname, search, hash) ?? withLanguagePrefix(lang, pathname, search, hash)} />;
}
