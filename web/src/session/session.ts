/**
 * Session lifecycle of spec section 4: login, renewal, logout. Works on a store passed in (the app
 * passes `appStore`), so the rules can be tested with fresh stores and fake calls.
 */
import { apiClient, type ApiClient } from '../api/client';
import type { AppStore } from '../store';
import { getAccount, getRefresh, postLogin, postLogout } from './api';
import { clearLangCookie, clearScopeChangedCookie, writeLangCookie } from './cookies';
import { toOperationError, track } from './operations';
import { mustLogOut, readSessionCookies, renewalReason } from './rules';
import { toAuthUser, type AccountInfo, type AuthResponse, type AuthUser } from './types';

export interface SessionDeps {
  api?: ApiClient;
  now?: () => number;
  cookies?: () => string;
}

const readDocumentCookies = () => (typeof document === 'undefined' ? '' : document.cookie);

const inflight = new WeakMap<AppStore, Promise<AuthUser | null>>();

/** Clears the user and account and the language cookie, without calling the server. */
export function clearClientSession(store: AppStore): void {
  store.getState().clearSession();
  clearLangCookie();
}

/**
 * Renews the access token with the rt cookie (GET /auth/refresh). One renewal at a time per store;
 * a failed renewal clears the user.
 */
export function renewSession(store: AppStore, { api = apiClient }: SessionDeps = {}): Promise<AuthUser | null> {
  const running = inflight.get(store);
  if (running) return running;
  const promise = track(store, 'refresh', () => getRefresh(api))
    .then((response) => {
      const user = toAuthUser(response);
      store.getState().setUser(user);
      clearScopeChangedCookie();
      return user;
    })
    .catch(() => {
      store.getState().clearSession();
      return null;
    })
    .finally(() => {
      inflight.delete(store);
      store.getState().setSessionChecked();
    });
  inflight.set(store, promise);
  return promise;
}

/**
 * Applies the cookie and expiry rules: logs the client out when `logged_in` differs from the user
 * id, renews when the token is missing, about to expire or its scope was changed to 0.
 * Resolves with the current user (null when logged out).
 */
export async function checkSession(store: AppStore, deps: SessionDeps = {}): Promise<AuthUser | null> {
  const { now = Date.now, cookies = readDocumentCookies } = deps;
  const view = readSessionCookies(cookies());
  const { user } = store.getState();
  if (mustLogOut(user, view)) {
    clearClientSession(store);
    store.getState().setSessionChecked();
    return null;
  }
  const reason = renewalReason(user, now(), view);
  if (reason === null) {
    store.getState().setSessionChecked();
    return user;
  }
  return renewSession(store, deps);
}

/** A valid access token for a bearer call, renewing first when needed; null when logged out. */
export async function getAccessToken(store: AppStore, deps: SessionDeps = {}): Promise<string | null> {
  const user = await checkSession(store, deps);
  return user?.accessToken ?? null;
}

/** Reads the account after login; a failure here does not undo the login. */
async function loadAccountInfo(store: AppStore, token: string, api: ApiClient): Promise<AccountInfo | null> {
  try {
    const account = await track(store, 'loadAccount', () => getAccount(token, api));
    store.getState().setAccount(account);
    return account;
  } catch {
    return null;
  }
}

export interface LoginResult {
  user: AuthUser;
  account: AccountInfo | null;
}

/**
 * Login: request, then success (user stored, account info read, its language adopted through the
 * langCode cookie) or failure, which rejects with the OperationError.
 */
export function logIn(
  store: AppStore,
  credentials: { email: string; pw: string },
  { api = apiClient }: SessionDeps = {},
): Promise<LoginResult> {
  return startSession(store, () => postLogin(credentials.email, credentials.pw, api), { api });
}

/**
 * A session from any call that answers like a login (login, or opening a claim link with its password),
 * tracked as the `login` operation.
 */
export async function startSession(
  store: AppStore,
  open: () => Promise<AuthResponse>,
  { api = apiClient }: SessionDeps = {},
): Promise<LoginResult> {
  store.getState().operationRequest('login');
  let user: AuthUser;
  try {
    user = toAuthUser(await open());
  } catch (error) {
    const failure = toOperationError(error);
    store.getState().operationFailure('login', failure);
    throw failure;
  }
  store.getState().setUser(user);
  store.getState().setSessionChecked();
  const account = user.scope >= 1 ? await loadAccountInfo(store, user.accessToken, api) : null;
  if (account) writeLangCookie(account.prefferedLanguage);
  store.getState().operationSuccess('login');
  return { user, account };
}

/** Logout: POST /auth/logout (its failure does not keep the user in), then clear the client. */
export async function logOut(store: AppStore, { api = apiClient }: SessionDeps = {}): Promise<void> {
  try {
    await track(store, 'logout', () => postLogout(api));
  } catch {
    // The client forgets the user whatever the server said.
  }
  clearClientSession(store);
}
