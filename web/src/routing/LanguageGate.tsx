import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { isLang } from '../i18n/languages';
import { applyLangQuery } from './langQuery';
import { LanguageRedirect } from './LanguageRedirect';

/**
 * Route element of `/:lang`: renders the app for a valid language, redirects otherwise (or for a `lang` query). The
 * boundary holds a page whose language's catalogue is still loading (router navigations keep the previous page
 * meanwhile).
 */
export function LanguageGate() {
  const { lang } = useParams();
  const { pathname, search, hash } = useLocation();
  const valid = isLang(lang);
  const queried = valid ? applyLangQuery(pathname, search, hash) : undefined;

  useEffect(() => {
    if (valid) document.documentElement.lang = lang;
  }, [valid, lang]);

  if (queried !== undefined) return <Navigate replace to={queried} />;
  return valid ? (
    <Suspense fallback={null}>
      <Outlet />
    </Suspense>
  ) : (
    <LanguageRedirect />
  );
}
