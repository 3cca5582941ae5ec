/** Account calls of spec section 7 used by the auth pages. */
import { apiClient } from '../../api/client';
import type { Schema } from '../../api/typed';
import type { Lang } from '../../i18n/languages';

export type RegistrationBody = Schema<'RegistrationForm'> & { language: Lang };

export type RegistrationResult = Schema<'RegistrationResult'>;

/** Address the confirmation mail leads back to (spec section 2: /register/confirm). */
export function confirmationRedirectUri(): string {
  return `${window.location.origin}/register/confirm`;
}

export function postRegistration(body: RegistrationBody, userLicenseKey?: string): Promise<RegistrationResult> {
  return apiClient.request<RegistrationResult>('/accounts', {
    method: 'POST',
    query: { redirectionUri: confirmationRedirectUri(), userLicenseKey },
    body,
  });
}

export function getEmailCheck(email: string): Promise<{ isRegistered: boolean }> {
  return apiClient.request<{ isRegistered: boolean }>('/accounts/check', { query: { email } });
}

export function postResendConfirmation(userId: string): Promise<unknown> {
  return apiClient.request(`/accounts/${encodeURIComponent(userId)}/please-one-more-confirm-email`, {
    method: 'POST',
    query: { redirectionUri: confirmationRedirectUri() },
  });
}

export function postPasswordResetMail(email: string, resend: boolean, localeCode: Lang): Promise<unknown> {
  return apiClient.request('/accounts/password-change-email', {
    method: 'POST',
    query: { localeCode },
    body: { email, resend } satisfies Schema<'ResetRequest'>,
  });
}

export function getPasswordResetCheck(t: string): Promise<unknown> {
  return apiClient.request('/accounts/password-change-check', { query: { t } });
}

export function putPasswordChange(pw: string, token: string): Promise<unknown> {
  return apiClient.request('/accounts/password-change', { method: 'PUT', body: { pw, token } satisfies Schema<'ResetForm'> });
}
