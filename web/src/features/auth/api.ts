/** Account calls of spec section 7 used by the auth pages, typed from the server's schema. */
import { apiGet, apiPost, apiPut, type Schema } from '../../api/typed';

export type RegistrationBody = Schema<'RegistrationForm'>;

export type RegistrationResult = Schema<'RegistrationResult'>;

/** Address the confirmation mail leads back to (spec section 2: /register/confirm). */
export function confirmationRedirectUri(): string {
  return `${window.location.origin}/register/confirm`;
}

/** POST /accounts: registers, optionally with the licence key the buyer came with. */
export function postRegistration(body: RegistrationBody, userLicenseKey?: string): Promise<RegistrationResult> {
  return apiPost('/accounts', { query: { redirectionUri: confirmationRedirectUri(), userLicenseKey }, body });
}

/** POST /accounts/{account_id}/please-one-more-confirm-email: mails the confirmation link again. */
export function postResendConfirmation(userId: string) {
  return apiPost('/accounts/{account_id}/please-one-more-confirm-email', {
    params: { account_id: userId },
    query: { redirectionUri: confirmationRedirectUri() },
  });
}

/** GET /accounts/password-change-check?t=: whether a reset link's token still holds. */
export function getPasswordResetCheck(t: string) {
  return apiGet('/accounts/password-change-check', { query: { t } });
}

/** PUT /accounts/password-change: the new password, with the reset link's token. */
export function putPasswordChange(pw: string, token: string) {
  return apiPut('/accounts/password-change', { body: { pw, token } });
}
