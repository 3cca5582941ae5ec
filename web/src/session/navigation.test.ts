import { describe, expect, it } from 'vitest';
import { afterLoginPath, afterLogoutPath, inLanguage, returnPath } from './navigation';
import type { AuthUser } from './types';

const user = (scope: number): AuthUser => ({ userId: 'u', email: 'a@b.c', scope, accessToken: 't', expiredAt: 0 });

describe('after login', () => {
  const base = { home: '/en', registerAuth: '/en/register/auth' };
  it('goes to register/auth when the scope is 0', () => {
    expect(afterLoginPath({ ...base, user: user(0), from: '/en/account' })).toBe('/en/register/auth');
  });
  it('goes back to the previous page, else home', () => {
    expect(afterLoginPath({ ...base, user: user(1), from: '/en/account?code=A' })).toBe('/en/account?code=A');
    expect(afterLoginPath({ ...base, user: user(1), from: undefined })).toBe('/en');
  });
  it("adopts the account's language", () => {
    expect(afterLoginPath({ ...base, user: user(1), from: '/en/account', preferredLanguage: 'ja' })).toBe('/ja/account');
    expect(afterLoginPath({ ...base, user: user(1), from: undefined, preferredLanguage: 'ko' })).toBe('/ko');
  });
  it('accepts only app paths as the return', () => {
    expect(returnPath({ from: '/ko/account' })).toBe('/ko/account');
    expect(returnPath({ from: '//evil.example' })).toBeUndefined();
    expect(returnPath({ from: 'https://evil.example' })).toBeUndefined();
    expect(returnPath(null)).toBeUndefined();
  });
});

describe('after logout', () => {
  const base = { login: '/en/login', browserLanguage: 'ko' as const };
  it('goes to login from a page that needs scope 1', () => {
    expect(afterLogoutPath({ ...base, current: '/en/account', needsScope: true })).toBe('/en/login');
  });
  it('stays on other pages, switched to the browser language', () => {
    expect(afterLogoutPath({ ...base, current: '/en/purchase?code=A', needsScope: false })).toBe('/ko/purchase?code=A');
    expect(afterLogoutPath({ ...base, current: '/ko/purchase', needsScope: false })).toBe('/ko/purchase');
  });
  it('keeps the language on account-delete and email-change pages', () => {
    expect(afterLogoutPath({ ...base, current: '/en/account/delete/confirm?email=x', needsScope: false })).toBe(
      '/en/account/delete/confirm?email=x',
    );
    expect(afterLogoutPath({ ...base, current: '/en/account/email-change/confirm?t=1', needsScope: false })).toBe(
      '/en/account/email-change/confirm?t=1',
    );
  });
  it('switches the language segment of a path', () => {
    expect(inLanguage('/en/account?x=1#h', 'ja')).toBe('/ja/account?x=1#h');
  });
});
