/**
 * A failed call as the purchase, licence, subscription and payment features keep it, and how it
 * reads (spec section 8): the message for a code comes from `payments.errorCodes`, then the
 * server's message, then the generic text.
 */
import { ApiError } from '../api/client';
import { deriveErrorMessage, FALLBACK_ERROR_CODE } from '../api/errors';
import type { Catalogue } from '../i18n/catalogues';
import { tooManyRequestsMessage } from './wait';

/** A failure as these features keep it: the derived code ('STOP' for a closed payment window). */
export interface FeatureError {
  code: number | 'STOP';
  body?: unknown;
  /** No answer came (connection down, timed out): the message asks to check the connection, not the server. */
  network?: boolean;
}

/** What a failing fetch says in Chromium, Firefox and Safari when the connection is down. */
const NETWORK_FAILURE = /failed to fetch|networkerror|load failed|network request failed|err_internet_disconnected/i;

/** Whether a message (a payment window's, a script's) tells of a connection that failed rather than a refusal. */
export function isNetworkFailureText(message: string | null | undefined): boolean {
  return !!message && NETWORK_FAILURE.test(message);
}

/** The code and body of an ApiError; anything else (a script that did not load) is -1002. */
export function toFeatureError(error: unknown): FeatureError {
  if (error instanceof ApiError) {
    return error.reason === 'response' ? { code: error.code, body: error.body } : { code: error.code, network: true };
  }
  if (error instanceof TypeError && isNetworkFailureText(error.message)) return { code: FALLBACK_ERROR_CODE, network: true };
  return { code: FALLBACK_ERROR_CODE };
}

/** Message of a code: catalogue, then the body's message, then the generic server-response text. */
export function featureErrorMessage(t: Catalogue, error: FeatureError): string {
  if (error.network) return t.errors.network;
  const codes: Record<string, string | undefined> = t.payments.errorCodes;
  return deriveErrorMessage({
    catalogueMessage: tooManyRequestsMessage(t, error.code, error.body) ?? codes[String(error.code)],
    body: error.body,
    fallback: t.errors.generic,
  });
}

/** A code from a URL query ('STOP' or an integer), or undefined when it is neither. */
export function parseErrorCode(value: string | null | undefined): FeatureError['code'] | undefined {
  if (!value) return undefined;
  if (value.toUpperCase() === 'STOP') return 'STOP';
  return /^-?\d+$/.test(value) ? Number(value) : undefined;
}

/** Spec section 6: a 401 or 403 on a list or detail load is silent (no alert, the page stays loading). */
export function isSilentLoadError(error: FeatureError): boolean {
  return error.code === 401 || error.code === 403;
}

/** 404 or -109 on a detail load: information not found, going home. */
export function isNotFoundGoingHome(error: FeatureError): boolean {
  return error.code === 404 || error.code === -109;
}
