/** Auth calls of spec section 7. */
import { apiClient, type ApiClient } from '../api/client';
import type { Schema } from '../api/typed';
import type { AccountInfo, AuthResponse } from './types';

export function postLogin(email: string, pw: string, api: ApiClient = apiClient): Promise<AuthResponse> {
  return api.request<AuthResponse>('/auth/login', { method: 'POST', body: { email, pw } satisfies Schema<'Credentials'> });
}

export function getRefresh(api: ApiClient = apiClient): Promise<AuthResponse> {
  return api.request<AuthResponse>('/auth/refresh');
}

export function postLogout(api: ApiClient = apiClient): Promise<unknown> {
  return api.request('/auth/logout', { method: 'POST' });
}

export function getAccount(token: string, api: ApiClient = apiClient): Promise<AccountInfo> {
  return api.request<AccountInfo>('/accounts', { token });
}
