import { Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, useParams } from 'wouter';
import { isLang } from '../i18n/languages';
import { applyLangQuery } from './langQuery';
import { LanguageRedirect } from './LanguageRedirect';
import { useCurrentLocation } from './location';

/**
 * The app under `/:lang`: renders `children` for a valid language, redirects otherwise (or for a `lang` query). The
 * boundary holds a page whose language's catalogue is still loading (navigations keep the previous page meanwhile).
 */
export function LanguageGate({ children }: { children: ReactNode }) {
  const { lang } = useParams();
  const { pathname, search, hash } = useCurrentLocation();
  const valid = isLang(lang);
  const queried = valid ? applyLangQuery(pathname, search, hash) : undefined;

  useEffect(() => {
    if (valid) document.documentElement.lang = lang;
  }, [valid, lang]);

  if (queried !== undefined) return <Redirect replace to={queried} />;
  return valid ? <Suspense fallback={null}>{children}</Suspense> : <LanguageRedirect />;
}
