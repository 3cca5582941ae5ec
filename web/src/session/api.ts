/** Auth calls of spec section 7, typed from the server's schema. */
import type { ApiClient } from '../api/client';
import { apiGet, apiPost } from '../api/typed';
import type { AccountInfo, AuthResponse } from './types';

/** POST /auth/login with the credentials. */
export function postLogin(email: string, pw: string, client?: ApiClient): Promise<AuthResponse> {
  return apiPost('/auth/login', { body: { email, pw }, client });
}

/** GET /auth/refresh: a new access token from the refresh cookie. */
export function getRefresh(client?: ApiClient): Promise<AuthResponse> {
  return apiGet('/auth/refresh', { client });
}

/** POST /auth/logout: forgets the refresh cookie. */
export function postLogout(client?: ApiClient) {
  return apiPost('/auth/logout', { client });
}

/** GET /accounts: the logged-in user's account. */
export function getAccount(token: string, client?: ApiClient): Promise<AccountInfo> {
  return apiGet('/accounts', { token, client });
}
