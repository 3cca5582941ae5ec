/** Account calls of spec section 7 used by the auth pages, typed from the server's schema. */
import { apiGet, apiPost, apiPut, type Schema } from '../../api/typed';

export type RegistrationBody = Schema<'RegistrationForm'>;

export type RegistrationResult = Schema<'RegistrationResult'>;

/** Address the confirmation mail leads back to (spec section 2: /register/confirm). */
export function confirmationRedirectUri(): string {
  return `${window.location.origin}/register/confirm`;
}

/**
 * POST /accounts: registers, optionally with the licence key the buyer came with and the receipt link's signed
 * `t`, which proves the mailbox so that a guest's purchases join the account at once.
 */
export function postRegistration(
  body: RegistrationBody,
  userLicenseKey?: string,
  receiptToken?: string,
): Promise<RegistrationResult> {
  return apiPost('/accounts', {
    query: { redirectionUri: confirmationRedirectUri(), userLicenseKey, receiptToken },
    body,
  });
}

/** GET /auth/claim?t=: the address a claim link was mailed to, while the claim is open. */
export function getClaimCheck(t: string) {
  return apiGet('/auth/claim', { query: { t } });
}

/** POST /auth/claim: opens the claim link with the password chosen at registration; logs in. */
export function postClaim(t: string, pw: string) {
  return apiPost('/auth/claim', { body: { t, pw } });
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
