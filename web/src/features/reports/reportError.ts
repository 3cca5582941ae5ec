/** How a failed report call reads (spec section 8, the "ad and misblock report" feature). */
import { deriveErrorMessage } from '../../api/errors';
import type { FeatureError } from '../../errors/featureError';
import type { Catalogue } from '../../i18n/catalogues';
import { tooManyRequestsMessage } from '../../errors/wait';

/** The catalogue's text for the code, then the server's message, then the generic text. */
export function reportErrorMessage(t: Catalogue, error: FeatureError): string {
  const codes: Record<string, string | undefined> = t.report.errorCodes;
  return deriveErrorMessage({ catalogueMessage: tooManyRequestsMessage(t, error.code, error.body) ?? codes[String(error.code)], body: error.body, fallback: t.errors.generic });
}
