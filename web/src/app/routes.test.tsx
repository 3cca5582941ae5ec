import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../store';
import { renderAtAddress } from '../test/renderAtAddress';
import { AppRoutes, lazyPageAt } from './routes';

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url);
}

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko-KR', 'ko']);
  appStore.getState().closeMenus();
});

describe('language routing', () => {
  it('sends / to /ko and shows the Korean home page', async () => {
    const { location } = renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: '대한민국 1등 광고 차단 앱' })).toBeTruthy();
    expect(location()).toBe('/ko');
    expect(document.documentElement.lang).toBe('ko');
    expect(document.title).toBe('유니콘 - 대한민국 1등 광고 차단 앱');
  });

  it('uses the langCode cookie before the browser language', async () => {
    document.cookie = 'langCode=en; path=/';
    const { location } = renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: "Korea's No.1 ad-blocking app" })).toBeTruthy();
    expect(location()).toBe('/en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('uses the browser language when there is no cookie', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'ja-JP']);
    const { location } = renderAt('/');
    await screen.findByRole('heading', { level: 1, name: '韓国No.1の広告ブロックアプリ' });
    expect(location()).toBe('/ja');
  });

  it('keeps the path and the coupon code', async () => {
    const { location } = renderAt('/purchase?code=ABC');
    await screen.findByRole('heading', { level: 1, name: '구매하기' });
    expect(location()).toBe('/ko/purchase?code=ABC');
  });

  it('replaces an unknown two-letter language', async () => {
    const { location } = renderAt('/xx/login');
    await screen.findByRole('heading', { level: 1, name: '로그인' });
    expect(location()).toBe('/ko/login');
  });

  it('shows the not-found page for an unknown path under a language', async () => {
    renderAt('/ja/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'ページが見つかりません' })).toBeTruthy();
  });
});

describe('layout', () => {
  it('carries the coupon code on the links it builds', async () => {
    renderAt('/en?code=SAVE30');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const purchase = nav.querySelector('a[href^="/en/purchase"]');
    expect(purchase?.getAttribute('href')).toBe('/en/purchase?code=SAVE30');
    expect(screen.getByRole('link', { name: 'Unicorn home' }).getAttribute('href')).toBe('/en?code=SAVE30');
  });

  it('opens support links in a new window without an opener', async () => {
    renderAt('/ko');
    const help = await screen.findByRole('link', { name: /고객센터/ });
    expect(help.getAttribute('target')).toBe('_blank');
    expect(help.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('sends an anonymous visitor from My Account to the login page', async () => {
    const { location } = renderAt('/ja?code=Q');
    const button = await screen.findByRole('button', { name: 'マイアカウント' });
    await act(async () => button.click());
    await screen.findByRole('heading', { level: 1, name: 'ログイン' });
    expect(location()).toBe('/ja/login?code=Q');
  });

  it('loads the footer lazily with its links', async () => {
    renderAt('/en');
    const footerNav = await screen.findByRole('navigation', { name: 'Quick links' });
    expect(footerNav.querySelectorAll('a')).toHaveLength(9);
  });

  it('toggles the navigation menu and the dimmer from the menu button', async () => {
    renderAt('/en');
    const toggle = await screen.findByRole('button', { name: 'Open menu' });
    await act(async () => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.querySelector('.dimmer')).not.toBeNull();
    expect(document.body.classList.contains('modal-open')).toBe(true);

    await act(async () => (document.querySelector('.dimmer') as HTMLElement).click());
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.body.classList.contains('modal-open')).toBe(false);
  });
});

describe('the first page preloaded', () => {
  it('finds the lazily loaded page of a path, whose code preload then fetches', async () => {
    const purchase = lazyPageAt('/ko/purchase');
    expect(purchase).toBeDefined();
    const loaded = (await purchase?.preload()) as { default: unknown };
    expect(typeof loaded.default).toBe('function');
    expect(lazyPageAt('/en/login')).not.toBe(purchase);
  });

  it('finds none where the page is part of the first bundle or the path is redirected', () => {
    expect(lazyPageAt('/ko')).toBeUndefined();
    expect(lazyPageAt('/')).toBeUndefined();
  });
});
