/** Calls shared by several features, typed from the generated schema. */
import type { Lang } from '../i18n/languages';
import type { ApiClient } from './client';
import { apiGet, apiPost, type Schema } from './typed';

export type EmailCheck = Schema<'EmailCheck'>;

/** GET /health: 200 when the event store and the broker answer, else the call rejects. */
export function getHealth(client?: ApiClient) {
  return apiGet('/health', { client });
}

/** GET /accounts/check?email=: whether an email is already registered. */
export function checkEmail(email: string, client?: ApiClient): Promise<EmailCheck> {
  return apiGet('/accounts/check', { query: { email }, client });
}

/**
 * POST /accounts/password-change-email: mails a password-reset link (`resend` mails the pending
 * one again). The reset page and the account settings' password change both ask for it.
 */
export function postPasswordResetMail(email: string, resend: boolean, localeCode: Lang, client?: ApiClient) {
  return apiPost('/accounts/password-change-email', { undocumentedQuery: { localeCode }, body: { email, resend }, client });
}
