/**
 * Which banners to show (spec sections 4 and 9): a banner shows when it is active, inside its date
 * window (whole +09:00 days for a notice) and not dismissed. A dismissal lasts one day: it is kept in
 * a cookie whose value is the end of the dismissal, so that it is judged against the page's clock.
 */
import { readCookie } from '../../browser/cookies';
import { isLive } from '../../display/activity';
import { DAY_MS } from '../../display/dates';
import { pickLocalization } from '../../display/localization';
import type { Lang } from '../../i18n/languages';
import type { Banner, BannerLocalization, EventBannersAnswer } from './api';

export const DISMISSAL_MS = DAY_MS;

export function dismissalCookieName(banner: Pick<Banner, 'id' | 'type'>): string {
  return `bannerClosed_${banner.type === 'notice' ? 'notice' : 'event'}_${String(banner.id).replace(/[^\w-]/g, '_')}`;
}

/** Cookie that hides the banner for one day from `now`. */
export function dismissalCookie(banner: Pick<Banner, 'id' | 'type'>, now: Date): string {
  const until = now.getTime() + DISMISSAL_MS;
  return `${dismissalCookieName(banner)}=${until}; max-age=${DISMISSAL_MS / 1000}; path=/; SameSite=Lax`;
}

export function isDismissed(banner: Pick<Banner, 'id' | 'type'>, now: Date, cookieString: string): boolean {
  const value = readCookie(dismissalCookieName(banner), cookieString);
  if (value === undefined) return false;
  const until = Number(value);
  return Number.isFinite(until) && now.getTime() < until;
}

export interface ShownBanner {
  banner: Banner;
  localization: BannerLocalization;
}

/** The banner to show, with its localization (language, then en, then ko), or undefined. */
export function shownBanner(
  banner: Banner | null | undefined,
  lang: Lang,
  now: Date,
  cookieString: string,
): ShownBanner | undefined {
  if (!banner || !isLive(banner, now) || isDismissed(banner, now, cookieString)) return undefined;
  const localization = pickLocalization(banner.localizations, lang);
  if (!localization) return undefined;
  const hasContent = Boolean(localization.text || localization.pcImageUrl || localization.mobileImageUrl);
  return hasContent ? { banner, localization } : undefined;
}

export function shownBanners(answer: EventBannersAnswer, lang: Lang, now: Date, cookieString: string) {
  return {
    notice: shownBanner(answer.notice ? { ...answer.notice, type: 'notice' } : null, lang, now, cookieString),
    event: shownBanner(answer.eventBanner ? { ...answer.eventBanner, type: 'event' } : null, lang, now, cookieString),
  };
}
