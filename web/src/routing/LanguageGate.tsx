import { Suspense, useEffect } from 'react';
import { Outlet, useParams } from 'react-router-dom';
import { isLang } from '../i18n/languages';
import { LanguageRedirect } from './LanguageRedirect';

/**
 * Route element of `/:lang`: renders the app for a valid language, redirects otherwise. The boundary holds a
 * page whose language's catalogue is still loading (router navigations keep the previous page meanwhile).
 */
export function LanguageGate() {
  const { lang } = useParams();
  const valid = isLang(lang);

  useEffect(() => {
    if (valid) document.documentElement.lang = lang;
  }, [valid, lang]);

  return valid ? (
    <Suspense fallback={null}>
      <Outlet />
    </Suspense>
  ) : (
    <LanguageRedirect />
  );
}
