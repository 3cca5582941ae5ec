/** Where the session sends people: after login, after logout, and the return address of a guard. */
import { isLang, type Lang } from '../i18n/languages';
import { withLanguagePrefix } from '../routing/paths';
import type { AuthUser } from './types';

/** Router state a page puts on the way to login: the page to come back to. */
export interface ReturnState {
  from?: string;
}

/** The `from` of a router state, when it is an app path (never another origin). */
export function returnPath(state: unknown): string | undefined {
  const from = (state as ReturnState | null | undefined)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : undefined;
}

/** The same app path in another language: `/en/account?x=1` in ko is `/ko/account?x=1`. */
export function inLanguage(path: string, lang: Lang): string {
  const url = new URL(path, 'http://app.invalid');
  const segments = url.pathname.split('/');
  const rest = isLang(segments[1]) ? `/${segments.slice(2).join('/')}` : url.pathname;
  return withLanguagePrefix(lang, rest, url.search, url.hash);
}

/** The language segment of an app path, if it has a valid one. */
export function languageOf(path: string): Lang | undefined {
  const first = path.split(/[/?#]/)[1];
  return isLang(first) ? first : undefined;
}

export interface AfterLoginInput {
  user: AuthUser;
  /** The page to go back to, if any. */
  from: string | undefined;
  /** Home and register/auth in the current language. */
  home: string;
  registerAuth: string;
  /** The account's preferred language, adopted when known. */
  preferredLanguage?: Lang | undefined;
}

/** After login: register/auth when scope is 0, otherwise the previous page (else home), in the account's language. */
export function afterLoginPath({ user, from, home, registerAuth, preferredLanguage }: AfterLoginInput): string {
  if (user.scope < 1) return registerAuth;
  const target = from ?? home;
  return preferredLanguage ? inLanguage(target, preferredLanguage) : target;
}

/** Pages after whose logout the language is not switched to the browser's (spec section 4). */
const KEEP_LANGUAGE_SEGMENTS = ['account/delete', 'account/email-change'];

export interface AfterLogoutInput {
  /** Current path with query. */
  current: string;
  /** Whether the current page needs scope 1 or more. */
  needsScope: boolean;
  /** Login in the current language. */
  login: string;
  /** The browser's language. */
  browserLanguage: Lang;
}

/**
 * After logout: login when the page needs scope 1 or more; otherwise stay on the page, switched to
 * the browser's language when it differs (except on account-delete and email-change pages).
 */
export function afterLogoutPath({ current, needsScope, login, browserLanguage }: AfterLogoutInput): string {
  if (needsScope) return login;
  const pathname = current.split(/[?#]/)[0] ?? '';
  if (KEEP_LANGUAGE_SEGMENTS.some((segment) => pathname.includes(`/${segment}`))) return current;
  return languageOf(current) === browserLanguage ? current : inLanguage(current, browserLanguage);
}
