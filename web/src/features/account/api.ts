/** Bearer account calls of spec section 7, typed from the server's schema; the token is renewed first when needed. */
import { ApiError } from '../../api/client';
import { apiGet, apiPatch, apiPost, apiPut, type BodyOf } from '../../api/typed';
import { getAccessToken } from '../../session/session';
import type { AccountInfo } from '../../session/types';
import { appStore } from '../../store';

async function token(): Promise<string> {
  const access = await getAccessToken(appStore);
  if (!access) throw new ApiError(401, undefined, undefined, 'response');
  return access;
}

export type AccountPatch = BodyOf<'/accounts', 'patch'>;

/** GET /accounts: one's own account. */
export async function fetchAccount(): Promise<AccountInfo> {
  return apiGet('/accounts', { token: await token() });
}

/** PATCH /accounts: name, preferred language or marketing consent; the answer is the whole account. */
export async function patchAccount(patch: AccountPatch): Promise<AccountInfo> {
  return apiPatch('/accounts', { body: patch, token: await token() });
}

/** POST /accounts/check-password: -406 when it is not the current password. */
export async function postCheckPassword(pw: string) {
  return apiPost('/accounts/check-password', { body: { pw }, token: await token() });
}

/** PUT /accounts/delete, with the account's password (-406 when wrong) and the reason given. */
export async function putDeleteAccount(pw: string, deletedReason: string) {
  return apiPut('/accounts/delete', { body: { pw, deletedReason }, token: await token() });
}

/** Address the email-change mail leads back to. */
export function emailChangeRedirectUri(): string {
  return `${window.location.origin}/account/email-change/confirm`;
}

/** POST /accounts/email-change-email: mails a link to the new address, after checking the password. */
export async function postEmailChangeMail(email: string, pw: string) {
  return apiPost('/accounts/email-change-email', {
    query: { redirectionUri: emailChangeRedirectUri() },
    body: { email, pw },
    token: await token(),
  });
}

/** PUT /accounts/email-change: the answer names the new address. */
export function putEmailChange(changeToken: string) {
  return apiPut('/accounts/email-change', { body: { token: changeToken } });
}
