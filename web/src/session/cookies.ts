/** Cookies the page writes itself: the language choice, and clearing the scopeChanged flag. */
import { LANG_COOKIE, SCOPE_CHANGED_COOKIE } from './rules';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function writeLangCookie(lang: string): void {
  document.cookie = `${LANG_COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
}

function removeCookie(name: string): void {
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax`;
}

export function clearLangCookie(): void {
  removeCookie(LANG_COOKIE);
}

export function clearScopeChangedCookie(): void {
  removeCookie(SCOPE_CHANGED_COOKIE);
}
