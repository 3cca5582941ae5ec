/** Bearer account calls of spec section 7; the token is renewed first when needed. */
import { apiClient, ApiError } from '../../api/client';
import type { Schema } from '../../api/typed';
import type { Lang } from '../../i18n/languages';
import { getAccessToken } from '../../session/session';
import type { AccountInfo } from '../../session/types';
import { appStore } from '../../store';

async function token(): Promise<string> {
  const access = await getAccessToken(appStore);
  if (!access) throw new ApiError(401, undefined, undefined, 'response');
  return access;
}

export type AccountPatch = Schema<'ProfilePatch'> & { prefferedLanguage?: Lang };

export async function fetchAccount(): Promise<AccountInfo> {
  return apiClient.request<AccountInfo>('/accounts', { token: await token() });
}

export async function patchAccount(patch: AccountPatch): Promise<AccountInfo> {
  return apiClient.request<AccountInfo>('/accounts', { method: 'PATCH', body: patch, token: await token() });
}

export async function postCheckPassword(pw: string): Promise<unknown> {
  return apiClient.request('/accounts/check-password', { method: 'POST', body: { pw } satisfies Schema<'PasswordForm'>, token: await token() });
}

export async function putDeleteAccount(deletedReason: string): Promise<unknown> {
  return apiClient.request('/accounts/delete', { method: 'PUT', body: { deletedReason } satisfies Schema<'DeletionForm'>, token: await token() });
}

/** Address the email-change mail leads back to. */
export function emailChangeRedirectUri(): string {
  return `${window.location.origin}/account/email-change/confirm`;
}

export async function postEmailChangeMail(email: string, pw: string): Promise<unknown> {
  return apiClient.request('/accounts/email-change-email', {
    method: 'POST',
    query: { redirectionUri: emailChangeRedirectUri() },
    body: { email, pw } satisfies Schema<'EmailChangeRequest'>,
    token: await token(),
  });
}

/** PUT /accounts/email-change: the answer names the new address. */
export function putEmailChange(changeToken: string): Promise<Partial<Schema<'EmailOnly'>> | undefined> {
  return apiClient.request<Partial<Schema<'EmailOnly'>> | undefined>('/accounts/email-change', {
    method: 'PUT',
    body: { token: changeToken } satisfies Schema<'EmailChangeForm'>,
  });
}
