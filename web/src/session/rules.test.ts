import { describe, expect, it } from 'vitest';
import { isConfirmed, mustLogOut, readSessionCookies, RENEWAL_MARGIN_MS, renewalReason } from './rules';
import type { AuthUser } from './types';

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const user = (over: Partial<AuthUser> = {}): AuthUser => ({
  userId: 'u-1',
  email: 'a@example.com',
  scope: 1,
  accessToken: 'token',
  expiredAt: NOW + 10 * 60 * 1000,
  ...over,
});

describe('renewalReason (spec section 4)', () => {
  it('keeps a token that expires later than 2 minutes from now', () => {
    expect(renewalReason(user(), NOW, { loggedIn: 'u-1' })).toBeNull();
    expect(renewalReason(user({ expiredAt: NOW + RENEWAL_MARGIN_MS + 1 }), NOW, {})).toBeNull();
  });

  it('renews a token that expires within 2 minutes, or already expired', () => {
    expect(renewalReason(user({ expiredAt: NOW + RENEWAL_MARGIN_MS }), NOW, {})).toBe('expiring');
    expect(renewalReason(user({ expiredAt: NOW + 60_000 }), NOW, {})).toBe('expiring');
    expect(renewalReason(user({ expiredAt: NOW - 1 }), NOW, {})).toBe('expiring');
  });

  it('renews when the access token is missing and the logged_in cookie says a session exists', () => {
    expect(renewalReason(null, NOW, { loggedIn: 'u-1' })).toBe('missing');
    expect(renewalReason(user({ accessToken: '' }), NOW, { loggedIn: 'u-1' })).toBe('missing');
  });

  it('does not try to renew without a user nor a logged_in cookie', () => {
    expect(renewalReason(null, NOW, {})).toBeNull();
  });

  it('renews when a scopeChanged cookie says the scope changed to 0', () => {
    expect(renewalReason(user({ scope: 1 }), NOW, { scopeChanged: '0' })).toBe('scopeChanged');
    expect(renewalReason(user({ scope: 0 }), NOW, { scopeChanged: '0' })).toBeNull();
    expect(renewalReason(user({ scope: 1 }), NOW, { scopeChanged: '1' })).toBeNull();
  });
});

describe('mustLogOut: the logged_in cookie against the user id', () => {
  it('keeps the user while the cookie holds their id', () => {
    expect(mustLogOut(user(), { loggedIn: 'u-1' })).toBe(false);
  });
  it('logs out when the cookie names another user or is gone', () => {
    expect(mustLogOut(user(), { loggedIn: 'u-2' })).toBe(true);
    expect(mustLogOut(user(), {})).toBe(true);
  });
  it('has nothing to do without a user', () => {
    expect(mustLogOut(null, { loggedIn: 'u-2' })).toBe(false);
  });
});

describe('cookies and scope', () => {
  it('reads logged_in and scopeChanged from a cookie string', () => {
    expect(readSessionCookies('a=1; logged_in=u-9; scopeChanged=0')).toEqual({ loggedIn: 'u-9', scopeChanged: '0' });
    expect(readSessionCookies('logged_in=')).toEqual({ loggedIn: undefined, scopeChanged: undefined });
  });
  it('scope 1 or more is confirmed, 0 is not', () => {
    expect(isConfirmed(user({ scope: 0 }))).toBe(false);
    expect(isConfirmed(user({ scope: 2 }))).toBe(true);
    expect(isConfirmed(null)).toBe(false);
  });
});
