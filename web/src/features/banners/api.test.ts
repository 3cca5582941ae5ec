import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient } from '../../api/client';
import { fetchEventBanners } from './api';

function client(request: (path: string, init: unknown) => Promise<unknown>) {
  const spy = vi.fn(request);
  return { client: { request: spy } as unknown as ApiClient, spy };
}

const EMPTY = { couponGroup: null, eventBanner: null, notice: null };

describe('fetchEventBanners', () => {
  it('asks for the code and the country', async () => {
    const { client: c, spy } = client(async () => EMPTY);
    await fetchEventBanners({ code: 'SAVE30', countryCode: 'KR' }, c);
    expect(spy).toHaveBeenCalledWith('/event-banners', { query: { code: 'SAVE30', countryCode: 'KR' }, signal: undefined });
  });

  it('returns the banner and the notice', async () => {
    const notice = { id: 1, type: 'notice', active: true, localizations: [] };
    const { client: c } = client(async () => ({ couponGroup: { name: 'g' }, eventBanner: null, notice }));
    expect(await fetchEventBanners({ countryCode: 'KR' }, c)).toEqual({ couponGroup: { name: 'g' }, eventBanner: null, notice });
  });

  it('treats a 404 as no banner', async () => {
    const { client: c } = client(async () => {
      throw new ApiError(404, 404, { detail: 'Not Found' }, 'response');
    });
    expect(await fetchEventBanners({ countryCode: 'KR' }, c)).toEqual(EMPTY);
  });

  it('treats a network failure or a strange answer as no banner', async () => {
    const failing = client(async () => {
      throw new ApiError(-1002, undefined, undefined, 'network');
    });
    expect(await fetchEventBanners({ countryCode: 'KR' }, failing.client)).toEqual(EMPTY);
    const odd = client(async () => 'hello');
    expect(await fetchEventBanners({ countryCode: 'KR' }, odd.client)).toEqual(EMPTY);
    const malformed = client(async () => ({ eventBanner: { text: 'no id' }, notice: 3 }));
    expect(await fetchEventBanners({ countryCode: 'KR' }, malformed.client)).toEqual(EMPTY);
  });
});
