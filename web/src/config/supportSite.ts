/**
 * Links to the external support site (help centre, bug reports, ...), one locale per language.
 * The real host is not known yet: set VITE_SUPPORT_SITE_URL at build time; the default is a placeholder.
 */
import type { Lang } from '../i18n/languages';

const SUPPORT_SITE_URL = (import.meta.env.VITE_SUPPORT_SITE_URL ?? 'https://support.unicornpro.example').replace(/\/+$/, '');

/** Locale segment the support site uses for each language. */
const SUPPORT_LOCALE: Record<Lang, string> = { ko: 'ko', en: 'en-us', ja: 'ja' };

const helpCentre = (lang: Lang) => `${SUPPORT_SITE_URL}/hc/${SUPPORT_LOCALE[lang]}`;

export const supportSite = {
  helpCenter: helpCentre,
  reportBug: (lang: Lang) => `${helpCentre(lang)}/requests/new`,
  customerSupport: (lang: Lang) => `${helpCentre(lang)}/requests/new`,
  // Placeholders until the real article and community addresses are known.
  purchaseRefund: (lang: Lang) => `${helpCentre(lang)}/articles/purchase-and-refund`,
  community: (lang: Lang) => `${helpCentre(lang)}/community/topics`,
} satisfies Record<string, (lang: Lang) => string>;
