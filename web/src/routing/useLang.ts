import { useParams } from 'wouter';
import { DEFAULT_LANG, isLang, type Lang } from '../i18n/languages';

/** The language of the current URL (`/:lang/...`); Korean outside a language route. */
export function useLang(): Lang {
  const { lang } = useParams();
  return isLang(lang) ? lang : DEFAULT_LANG;
}
