/**
 * The honest exit's calls (bearer): the question asked before auto-renewal stops (reasons and the one retention
 * offer, if open), stopping with the answers, or taking the offer instead. The rules are the server's
 * (domain/subscriptions/exit.py).
 */
import type { ApiClient } from '../../api/client';
import type { Subscription } from '../../api/models';
import { apiGet, apiPost, type Schema } from '../../api/typed';

export type ExitQuestion = Schema<'ExitQuestionOut'>;
export type RetentionOffer = Schema<'RetentionOfferOut'>;

/** Why the subscriber leaves: reason codes and free text, both optional. */
export interface ExitAnswers {
  reasons: string[];
  comment: string;
}

/** What to ask: the reason codes and the offer (null when none is open). */
export function getExitQuestion(userLicenseId: string, token: string | null, client?: ApiClient): Promise<ExitQuestion> {
  return apiGet('/payments/licenses/subscribe/{user_license_id}/exit', {
    params: { user_license_id: userLicenseId },
    token,
    client,
  });
}

/** Stops auto-renewal with the answers; `offerDeclined` when the offer was shown beside the question. */
export function leave(
  userLicenseId: string,
  answers: ExitAnswers,
  offerDeclined: boolean,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/{user_license_id}/exit', {
    params: { user_license_id: userLicenseId },
    body: { ...answers, offerDeclined },
    token,
    client,
  });
}

/** Takes the one retention offer: auto-renewal stays on, the next renewal costs the offered price. */
export function stay(
  userLicenseId: string,
  answers: ExitAnswers,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/{user_license_id}/exit/offer', {
    params: { user_license_id: userLicenseId },
    body: answers,
    token,
    client,
  });
}
