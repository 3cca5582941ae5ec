import { describe, expect, it } from 'vitest';
import type { Banner } from './api';
import { dismissalCookie, dismissalCookieName, isDismissed, shownBanner, shownBanners } from './visibility';

const now = new Date('2026-11-22T03:00:00Z'); // 12:00 in Seoul

function banner(overrides: Partial<Banner> = {}): Banner {
  return {
    id: 7,
    type: 'event',
    active: true,
    startAt: '2026-11-20T00:00:00+09:00',
    endAt: '2026-11-30T23:59:59+09:00',
    localizations: [
      { langCode: 'ko', text: '블랙프라이데이 30% 할인' },
      { langCode: 'en', text: 'Black Friday: 30% off' },
    ],
    ...overrides,
  };
}

/** The name=value part of a Set-Cookie style text, as document.cookie would return it. */
const asCookieString = (cookie: string) => cookie.split(';')[0]!;

describe('shownBanner', () => {
  it('shows an active banner inside its window, in the chosen language', () => {
    expect(shownBanner(banner(), 'ko', now, '')?.localization.text).toBe('블랙프라이데이 30% 할인');
  });

  it('falls back to en, then ko', () => {
    expect(shownBanner(banner(), 'ja', now, '')?.localization.text).toBe('Black Friday: 30% off');
    const koOnly = banner({ localizations: [{ langCode: 'ko', text: '공지' }] });
    expect(shownBanner(koOnly, 'ja', now, '')?.localization.text).toBe('공지');
  });

  it('hides an inactive banner, or one outside its window', () => {
    expect(shownBanner(banner({ active: false }), 'ko', now, '')).toBeUndefined();
    expect(shownBanner(banner({ startAt: '2026-11-23T00:00:00+09:00' }), 'ko', now, '')).toBeUndefined();
    expect(shownBanner(banner({ startAt: null, endAt: '2026-11-21T00:00:00+09:00' }), 'ko', now, '')).toBeUndefined();
  });

  it('shows a notice for its whole start and end days', () => {
    const notice = banner({ type: 'notice', startAt: '2026-11-22T18:00:00+09:00', endAt: '2026-11-22T19:00:00+09:00' });
    expect(shownBanner(notice, 'ko', now, '')).toBeDefined();
    expect(shownBanner(notice, 'ko', new Date('2026-11-22T14:59:59Z'), '')).toBeDefined();
    expect(shownBanner(notice, 'ko', new Date('2026-11-22T15:00:00Z'), '')).toBeUndefined();
  });

  it('hides a banner without any content for the language', () => {
    expect(shownBanner(banner({ localizations: [{ langCode: 'ko', text: '' }] }), 'ko', now, '')).toBeUndefined();
    expect(shownBanner(banner({ localizations: [] }), 'ko', now, '')).toBeUndefined();
  });

  it('shows an image-only banner', () => {
    const image = banner({ localizations: [{ langCode: 'ko', pcImageUrl: '/b.png' }] });
    expect(shownBanner(image, 'ko', now, '')).toBeDefined();
  });
});

describe('dismissal', () => {
  it('hides the banner for one day after it is closed', () => {
    const cookie = asCookieString(dismissalCookie(banner(), now));
    expect(isDismissed(banner(), now, cookie)).toBe(true);
    expect(shownBanner(banner(), 'ko', now, cookie)).toBeUndefined();
    const almostADay = new Date(now.getTime() + 24 * 3600_000 - 1);
    expect(isDismissed(banner(), almostADay, cookie)).toBe(true);
    const aDayLater = new Date(now.getTime() + 24 * 3600_000);
    expect(isDismissed(banner(), aDayLater, cookie)).toBe(false);
  });

  it('sets a one-day cookie per banner and type', () => {
    expect(dismissalCookie(banner(), now)).toMatch(/^bannerClosed_event_7=\d+; max-age=86400; path=\/; SameSite=Lax$/);
    expect(dismissalCookieName(banner({ type: 'notice', id: 'a b' }))).toBe('bannerClosed_notice_a_b');
  });

  it('closing the notice does not hide the event banner', () => {
    const cookie = asCookieString(dismissalCookie(banner({ type: 'notice' }), now));
    expect(isDismissed(banner(), now, cookie)).toBe(false);
  });

  it('ignores an unreadable cookie', () => {
    expect(isDismissed(banner(), now, 'bannerClosed_event_7=yes')).toBe(false);
  });
});

describe('shownBanners', () => {
  it('picks the notice and the event banner by their slot', () => {
    const result = shownBanners(
      { couponGroup: null, eventBanner: banner({ id: 1 }), notice: banner({ id: 2, type: 'event' }) },
      'en',
      now,
      '',
    );
    expect(result.event?.banner.id).toBe(1);
    expect(result.notice?.banner.type).toBe('notice');
  });

  it('shows nothing for an empty answer', () => {
    expect(shownBanners({ couponGroup: null, eventBanner: null, notice: null }, 'ko', now, '')).toEqual({
      notice: undefined,
      event: undefined,
    });
  });
});
