/**
 * Session rules of spec section 4, as pure functions: when to renew the access token and when the
 * `logged_in` cookie says the client must log out.
 */
import { readCookie } from '../browser/cookies';
import type { AuthUser } from './types';

/** Renew when the access token expires within this margin (spec section 9: 2 minutes). */
export const RENEWAL_MARGIN_MS = 2 * 60 * 1000;

/** Set by the server to the user id on login and refresh; readable by the page. */
export const LOGGED_IN_COOKIE = 'logged_in';
/** HttpOnly refresh token, sent only to /auth: the page never sees it. */
export const REFRESH_COOKIE = 'rt';
/** When its value is `0`, the user's scope was changed to 0 and the token must be renewed. */
export const SCOPE_CHANGED_COOKIE = 'scopeChanged';
/** The language the user chose; cleared on logout. */
export const LANG_COOKIE = 'langCode';

export type RenewalReason = 'missing' | 'expiring' | 'scopeChanged';

export interface CookieView {
  loggedIn?: string | undefined;
  scopeChanged?: string | undefined;
}

export function readSessionCookies(cookieString: string): CookieView {
  return {
    loggedIn: readCookie(LOGGED_IN_COOKIE, cookieString) || undefined,
    scopeChanged: readCookie(SCOPE_CHANGED_COOKIE, cookieString) || undefined,
  };
}

/**
 * Why the access token must be renewed now, or null when it is fine.
 * Without a user the token is missing, but renewal only makes sense when the `logged_in` cookie
 * says a session exists (the rt cookie is HttpOnly and cannot be looked at).
 */
export function renewalReason(user: AuthUser | null, now: number, cookies: CookieView): RenewalReason | null {
  if (!user || !user.accessToken) return cookies.loggedIn ? 'missing' : null;
  if (user.expiredAt - now <= RENEWAL_MARGIN_MS) return 'expiring';
  if (cookies.scopeChanged === '0' && user.scope !== 0) return 'scopeChanged';
  return null;
}

/** True when the client holds a user but the `logged_in` cookie is gone or names someone else. */
export function mustLogOut(user: AuthUser | null, cookies: CookieView): boolean {
  return user !== null && cookies.loggedIn !== user.userId;
}

/** Scope 0: email not confirmed; 1 or more: confirmed (spec section 4). */
export function isConfirmed(user: AuthUser | null): boolean {
  return user !== null && user.scope >= 1;
}
