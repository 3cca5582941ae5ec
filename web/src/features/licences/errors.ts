/** How the licence pages' own failures read (spec section 8), on top of errors/featureError.ts. */
import type { Catalogue } from '../../i18n/catalogues';
import { featureErrorMessage, type FeatureError } from '../../errors/featureError';

/** Licence registration shows these codes as inline text; others as an alert. */
export const LICENCE_REGISTER_TEXT_CODES: readonly (number | 'STOP')[] = [404, -100, -105, -106];

/** Open-beta join: -1002 means the beta has ended. */
export function openBetaMessage(t: Catalogue, error: FeatureError): string {
  return error.code === -1002 ? t.payments.openBetaEnded : featureErrorMessage(t, error);
}

/** Device rename: -2 means the conditions for a change are not met. */
export function deviceRenameMessage(t: Catalogue, error: FeatureError): string {
  return error.code === -2 ? t.payments.deviceRenameRefused : featureErrorMessage(t, error);
}
