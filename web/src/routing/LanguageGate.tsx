import { useEffect } from 'react';
import { Outlet, useParams } from 'react-router-dom';
import { isLang } from '../i18n/languages';
import { LanguageRedirect } from './LanguageRedirect';

/** Route element of `/:lang`: renders the app for a valid language, redirects otherwise. */
export function LanguageGate() {
  const { lang } = useParams();
  const valid = isLang(lang);

  useEffect(() => {
    if (valid) document.documentElement.lang = lang;
  }, [valid, lang]);

  return valid ? <Outlet /> : <LanguageRedirect />;
}
