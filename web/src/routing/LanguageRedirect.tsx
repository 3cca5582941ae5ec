import { Navigate, useLocation } from 'react-router-dom';
import { withLanguagePrefix } from './paths';
import { pickPreferredLanguage, readBrowserLanguageHints } from './preferredLanguage';

/** Sends a URL without a valid language prefix to the same URL with one. */
export function LanguageRedirect() {
  const { pathname, search, hash } = useLocation();
  const lang = pickPreferredLanguage(readBrowserLanguageHints());
  return <Navigate replace to={withLanguagePrefix(lang, pathname, search, hash)} />;
}
