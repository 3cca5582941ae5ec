/**
 * How the auth and account features show a failure (spec section 8): as an alert, inline text or
 * a message, in the page's language. The code comes from the spec's derivation (api/errors.ts).
 */
import { deriveErrorMessage } from '../api/errors';
import type { Catalogue } from '../i18n/catalogues';
import { tooManyRequestsMessage } from './wait';
import type { OperationError } from '../session/types';

export type ErrorDisplay = 'alert' | 'text' | 'message';

export type ErrorFeature =
  | 'signUp'
  | 'resendMail'
  | 'login'
  | 'logout'
  | 'passwordReset'
  | 'passwordChange'
  | 'emailChange'
  | 'accountModify'
  | 'accountDelete'
  | 'loginCheck'
  | 'linkExpiry'
  | 'access';

/** Codes shown as inline text per feature; every other code is an alert, except `messages`. */
const TEXT_CODES: Partial<Record<ErrorFeature, readonly number[]>> = {
  signUp: [-402, -407],
  login: [401],
  passwordChange: [-406],
  accountDelete: [-406],
  accountModify: [-411],
  emailChange: [-402, -406],
};

/** Codes shown as a message (not an alert) per feature. */
const MESSAGE_CODES: Partial<Record<ErrorFeature, readonly number[]>> = {
  passwordReset: [-4],
  resendMail: [-4],
};

/** Whether a code of a feature shows as an alert, inline text or a message. */
export function errorDisplay(feature: ErrorFeature, code: number): ErrorDisplay {
  if (TEXT_CODES[feature]?.includes(code)) return 'text';
  if (MESSAGE_CODES[feature]?.includes(code)) return 'message';
  return 'alert';
}

/** Message for a failure: the `auth.errorCodes` catalogue, then the server's message, then the generic text. */
export function accountErrorMessage(t: Catalogue, error: OperationError): string {
  if (error.network) return t.errors.network;
  const codes: Record<string, string | undefined> = t.auth.errorCodes;
  return deriveErrorMessage({
    catalogueMessage: tooManyRequestsMessage(t, error.code, error.body) ?? codes[String(error.code)],
    body: error.body,
    fallback: t.errors.generic,
  });
}
