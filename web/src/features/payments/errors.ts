/**
 * Error display of the purchase, licence and payment features (spec section 8): the message for a
 * code comes from `payments.errorCodes`, then the server's message, then the generic text.
 */
import { ApiError } from '../../api/client';
import { deriveErrorMessage, FALLBACK_ERROR_CODE } from '../../api/errors';
import type { Catalogue } from '../../i18n/catalogues';

/** A failure as these features keep it: the derived code ('STOP' for a closed payment window). */
export interface FeatureError {
  code: number | 'STOP';
  body?: unknown;
}

export function toFeatureError(error: unknown): FeatureError {
  if (error instanceof ApiError) return { code: error.code, body: error.body };
  return { code: FALLBACK_ERROR_CODE };
}

/** Message of a code: catalogue, then the body's message, then the generic server-response text. */
export function featureErrorMessage(t: Catalogue, error: FeatureError): string {
  const codes: Record<string, string | undefined> = t.payments.errorCodes;
  return deriveErrorMessage({
    catalogueMessage: codes[String(error.code)],
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

/** Licence registration shows these codes as inline text (spec section 8); others as an alert. */
export const LICENCE_REGISTER_TEXT_CODES: readonly (number | 'STOP')[] = [404, -100, -105, -106];

/** Open-beta join: -1002 means the beta has ended. */
export function openBetaMessage(t: Catalogue, error: FeatureError): string {
  return error.code === -1002 ? t.payments.openBetaEnded : featureErrorMessage(t, error);
}

/** Device rename: -2 means the conditions for a change are not met. */
export function deviceRenameMessage(t: Catalogue, error: FeatureError): string {
  return error.code === -2 ? t.payments.deviceRenameRefused : featureErrorMessage(t, error);
}

/** 404 or -109 on a detail load: information not found, going home. */
export function isNotFoundGoingHome(error: FeatureError): boolean {
  return error.code === 404 || error.code === -109;
}
