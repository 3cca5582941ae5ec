// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient, type ApiRequest } from '../api/client';
import { createAppStore, type AppStore } from '../store';
import { checkSession, getAccessToken, logIn, logOut, renewSession } from './session';
import type { AuthResponse, AuthUser } from './types';

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const answer = (over: Partial<AuthResponse> = {}): AuthResponse => ({
  id: 'u-1',
  email: 'a@example.com',
  scope: 1,
  accessToken: 'fresh',
  exp: Math.floor(NOW / 1000) + 3600,
  ...over,
});
const storedUser = (over: Partial<AuthUser> = {}): AuthUser => ({
  userId: 'u-1',
  email: 'a@example.com',
  scope: 1,
  accessToken: 'old',
  expiredAt: NOW + 30 * 60 * 1000,
  ...over,
});

type Handler = (path: string, request: ApiRequest) => unknown;

function fakeApi(handler: Handler) {
  const calls: { path: string; request: ApiRequest }[] = [];
  const api: ApiClient = {
    request: async <T,>(path: string, request: ApiRequest = {}) => {
      calls.push({ path, request });
      return (await handler(path, request)) as T;
    },
  };
  return { api, calls };
}

let store: AppStore;
const state = () => store.getState();

beforeEach(() => {
  store = createAppStore();
});

afterEach(() => {
  document.cookie = 'langCode=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('renewal', () => {
  it('goes request then success, storing the renewed user', async () => {
    const seen: string[] = [];
    store.subscribe((s) => seen.push(s.operations.refresh?.status ?? 'idle'));
    const { api } = fakeApi(() => answer());
    const user = await renewSession(store, { api });
    expect(user).toMatchObject({ userId: 'u-1', scope: 1, accessToken: 'fresh', expiredAt: answer().exp * 1000 });
    expect(state().user).toEqual(user);
    expect(seen).toContain('request');
    expect(state().operations.refresh).toEqual({ status: 'success' });
    expect(state().sessionChecked).toBe(true);
  });

  it('a failed renewal clears the user', async () => {
    state().setUser(storedUser());
    state().setAccount({
      id: 'u-1',
      email: 'a@example.com',
      name: null,
      prefferedLanguage: 'ko',
      marketingPushEnabled: false,
      emailConfirmed: true,
      lastLoggedInAt: null,
    });
    const { api } = fakeApi(() => {
      throw new ApiError(401, 401, { errorCode: 401 }, 'response');
    });
    expect(await renewSession(store, { api })).toBeNull();
    expect(state().user).toBeNull();
    expect(state().account).toBeNull();
    expect(state().operations.refresh).toMatchObject({ status: 'failure', error: { code: 401 } });
  });

  it('runs one renewal at a time', async () => {
    const { api, calls } = fakeApi(() => answer());
    const [a, b] = await Promise.all([renewSession(store, { api }), renewSession(store, { api })]);
    expect(a).toEqual(b);
    expect(calls).toHaveLength(1);
  });
});

describe('checkSession and getAccessToken', () => {
  it('keeps a valid token without calling the server', async () => {
    state().setUser(storedUser());
    const { api, calls } = fakeApi(() => answer());
    const token = await getAccessToken(store, { api, now: () => NOW, cookies: () => 'logged_in=u-1' });
    expect(token).toBe('old');
    expect(calls).toHaveLength(0);
  });

  it('renews a token that expires within 2 minutes', async () => {
    state().setUser(storedUser({ expiredAt: NOW + 90_000 }));
    const { api, calls } = fakeApi(() => answer());
    const token = await getAccessToken(store, { api, now: () => NOW, cookies: () => 'logged_in=u-1' });
    expect(token).toBe('fresh');
    expect(calls.map((c) => c.path)).toEqual(['/auth/refresh']);
  });

  it('renews when scopeChanged=0 says the scope dropped', async () => {
    state().setUser(storedUser());
    const { api } = fakeApi(() => answer({ scope: 0, accessToken: 'scope0' }));
    const user = await checkSession(store, { api, now: () => NOW, cookies: () => 'logged_in=u-1; scopeChanged=0' });
    expect(user?.scope).toBe(0);
  });

  it('restores the session at start when the logged_in cookie is there', async () => {
    const { api, calls } = fakeApi(() => answer());
    const user = await checkSession(store, { api, now: () => NOW, cookies: () => 'logged_in=u-1' });
    expect(user?.userId).toBe('u-1');
    expect(calls).toHaveLength(1);
  });

  it('does nothing without user nor cookie, but marks the session as checked', async () => {
    const { api, calls } = fakeApi(() => answer());
    expect(await checkSession(store, { api, now: () => NOW, cookies: () => '' })).toBeNull();
    expect(calls).toHaveLength(0);
    expect(state().sessionChecked).toBe(true);
  });

  it('logs the client out when logged_in names another user, without calling the server', async () => {
    document.cookie = 'langCode=en; path=/';
    state().setUser(storedUser());
    const { api, calls } = fakeApi(() => answer());
    const user = await checkSession(store, { api, now: () => NOW, cookies: () => 'logged_in=u-2' });
    expect(user).toBeNull();
    expect(state().user).toBeNull();
    expect(calls).toHaveLength(0);
    expect(document.cookie).not.toContain('langCode=en');
  });
});

describe('login and logout', () => {
  it('login stores the user, reads the account and adopts its language', async () => {
    const { api, calls } = fakeApi((path) =>
      path === '/auth/login'
        ? answer()
        : { id: 'u-1', email: 'a@example.com', name: null, prefferedLanguage: 'ja', marketingPushEnabled: true },
    );
    const result = await logIn(store, { email: 'a@example.com', pw: 'abcd1234' }, { api });
    expect(calls[0]).toMatchObject({ path: '/auth/login', request: { method: 'POST', body: { email: 'a@example.com', pw: 'abcd1234' } } });
    expect(calls[1]).toMatchObject({ path: '/accounts', request: { token: 'fresh' } });
    expect(result.account?.prefferedLanguage).toBe('ja');
    expect(state().user?.accessToken).toBe('fresh');
    expect(state().account?.marketingPushEnabled).toBe(true);
    expect(state().operations.login).toEqual({ status: 'success' });
    expect(document.cookie).toContain('langCode=ja');
  });

  it('login with scope 0 does not read the account', async () => {
    const { api, calls } = fakeApi(() => answer({ scope: 0 }));
    const result = await logIn(store, { email: 'a@example.com', pw: 'abcd1234' }, { api });
    expect(result.user.scope).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('a failed login goes to failure with the derived code and keeps no user', async () => {
    const { api } = fakeApi(() => {
      throw new ApiError(401, 401, { errorCode: -400, message: 'mismatch' }, 'response');
    });
    await expect(logIn(store, { email: 'a@example.com', pw: 'wrong1234' }, { api })).rejects.toMatchObject({ code: 401 });
    expect(state().user).toBeNull();
    expect(state().operations.login).toMatchObject({ status: 'failure', error: { code: 401 } });
  });

  it('logout clears user, account and the language cookie even when the call fails', async () => {
    document.cookie = 'langCode=en; path=/';
    state().setUser(storedUser());
    const { api, calls } = fakeApi(() => {
      throw new ApiError(-1002, undefined, undefined, 'network');
    });
    await logOut(store, { api });
    expect(calls.map((c) => [c.path, c.request.method])).toEqual([['/auth/logout', 'POST']]);
    expect(state().user).toBeNull();
    expect(document.cookie).not.toContain('langCode=en');
    expect(state().operations.logout?.status).toBe('failure');
  });
});

vi.setConfig({ testTimeout: 5000 });
