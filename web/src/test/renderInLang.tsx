import type { ReactNode } from 'react';
import { Route } from 'wouter';
import type { Lang } from '../i18n/languages';
import { renderAtAddress } from './renderAtAddress';

/** Renders `ui` on a /{lang} page, so that useT() and useLang() read that language. */
export function renderInLang(ui: ReactNode, lang: Lang = 'en') {
  return renderAtAddress(<Route path="/:lang">{ui}</Route>, `/${lang}`);
}
