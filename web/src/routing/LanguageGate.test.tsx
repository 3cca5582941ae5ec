import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../app/routes';
import { appStore } from '../store';
import { renderAtAddress } from '../test/renderAtAddress';

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url).location;
}

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko-KR', 'ko']);
  document.cookie = 'langCode=ja; path=/';
  appStore.getState().closeMenus();
});

describe('the lang query parameter in the app', () => {
  it('switches a page with a language to the asked one and keeps the coupon code', async () => {
    const location = renderAt('/ko/login?lang=en&code=SPRING');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/en/login?code=SPRING');
  });

  it('wins over the langCode cookie for an address without a language', async () => {
    const location = renderAt('/login?lang=en');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/en/login');
  });
});
