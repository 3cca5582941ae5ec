import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { appStore } from '../../store';
import { dollarSettings } from '../../test/paymentSettings';
import { renderAtAddress } from '../../test/renderAtAddress';
import { TopBanners } from './TopBanners';

const NOW = new Date('2026-11-22T12:00:00+09:00');

const answer = {
  couponGroup: null,
  eventBanner: {
    id: 1,
    type: 'event',
    active: true,
    startAt: '2026-11-20T00:00:00+09:00',
    endAt: '2026-11-30T00:00:00+09:00',
    localizations: [{ langCode: 'en', text: 'Black Friday', subText: '30% off', url: 'https://shop.example/bf' }],
  },
  notice: {
    id: 2,
    type: 'notice',
    active: true,
    startAt: '2026-11-22',
    endAt: '2026-11-22',
    localizations: [{ langCode: 'ko', text: '점검 안내' }],
  },
};

function renderAt(url: string) {
  return renderAtAddress(
    <Route path="/:lang">
      <TopBanners />
    </Route>,
    url,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  appStore.setState({ paymentSettings: null });
});

describe('TopBanners', () => {
  it('asks for the coupon code of the URL and shows both banners, falling back to ko', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/ja?code=BF');
    expect(await screen.findByRole('region', { name: 'イベント' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'お知らせ' }).textContent).toContain('점검 안내');
    const url = new URL(String((fetchMock.mock.calls[0] as unknown[])[0]), 'http://x');
    expect(url.pathname).toBe('/web/unicornpro/v1/event-banners');
    expect(url.searchParams.get('code')).toBe('BF');
    expect(url.searchParams.get('countryCode')).toBe('KR');
    const link = screen.getByRole('link', { name: /Black Friday/ });
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('asks for the banners of the country the server placed the visitor in, whatever the language', async () => {
    appStore.setState({ paymentSettings: dollarSettings });
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/ko');
    await screen.findByRole('region', { name: '공지' });
    const url = new URL(String((fetchMock.mock.calls[0] as unknown[])[0]), 'http://x');
    expect(url.searchParams.get('countryCode')).toBe('US');
  });

  it('closes a banner and remembers it in a cookie', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } })));
    renderAt('/en');
    const close = await screen.findByRole('button', { name: 'Close the notice (hide for one day)' });
    await act(async () => close.click());
    expect(screen.queryByRole('region', { name: 'Notice' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Event' })).toBeTruthy();
    expect(document.cookie).toContain(`bannerClosed_notice_2=${NOW.getTime() + 86_400_000}`);
  });

  it('shows nothing when the endpoint answers 404', async () => {
    const fetchMock = vi.fn(async () => new Response('{"detail":"Not Found"}', { status: 404, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { container } = renderAt('/ko');
    await act(async () => {
      await Promise.resolve();
    });
    expect(fetchMock).toHaveBeenCalled();
    expect(container.querySelector('.top-banner')).toBeNull();
  });
});
