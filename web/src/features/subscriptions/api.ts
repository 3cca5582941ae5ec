/**
 * Subscription and billing-key calls of the licence detail page (bearer), typed from the server's
 * schema. The calls a PG window's key goes to are shared with the purchase page (billing/api.ts).
 */
import { ApiError, type ApiClient } from '../../api/client';
import type { BillingKey, CardBody, Subscription, Wallet } from '../../api/models';
import { apiDelete, apiGet, apiPost, apiPut } from '../../api/typed';

/** The licence's subscription, or null when it has none (the server answers 404). */
export async function getSubscription(
  userLicenseId: string,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription | null> {
  try {
    return await apiGet('/payments/licenses/subscribe/{user_license_id}', {
      params: { user_license_id: userLicenseId },
      token,
      client,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return null;
    throw error;
  }
}

/** Turns auto-renewal off: the licence runs to its paid date, then stops. */
export function cancelAutoRenewal(userLicenseId: string, token: string | null, client?: ApiClient): Promise<Subscription> {
  return apiDelete('/payments/licenses/subscribe/{user_license_id}', {
    params: { user_license_id: userLicenseId },
    token,
    client,
  });
}

/** Resumes (within the paid period) or re-subscribes (after it) with the previous card, or a named key. */
export function resumeWithPreviousCard(
  userLicenseId: string,
  token: string | null,
  billingkeyId?: string,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/re-subscribe/{user_license_id}', {
    params: { user_license_id: userLicenseId },
    body: billingkeyId ? { billingkeyId } : {},
    token,
    client,
  });
}

/** Registers a new card and resumes or re-subscribes with it. */
export function resumeWithNewCard(
  userLicenseId: string,
  card: CardBody,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/re-subscribe/{user_license_id}/new-billingkey', {
    params: { user_license_id: userLicenseId },
    body: card,
    token,
    client,
  });
}

/** GET /billingkeys: the user's registered billing keys. */
export function getBillingKeys(token: string | null, client?: ApiClient): Promise<Wallet> {
  return apiGet('/billingkeys', { token, client });
}

/** Registers a card as a new billing key (-303 refused, -305 bad fields, -308 already registered). */
export function addBillingKey(card: CardBody, token: string | null, client?: ApiClient): Promise<BillingKey> {
  return apiPut('/billingkeys', { body: card, token, client });
}

/** After a failed renewal, charges the due period now with the current card (-303 refused, -306 nothing due). */
export function payNow(userLicenseId: string, token: string | null, client?: ApiClient): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/{user_license_id}/pay', {
    params: { user_license_id: userLicenseId },
    token,
    client,
  });
}

/** Agrees to the higher price the licence page asks about (the only way to agree; -360 when nothing is asked). */
export function agreeToPriceRise(userLicenseId: string, token: string | null, client?: ApiClient): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/{user_license_id}/price-rise/agree', {
    params: { user_license_id: userLicenseId },
    token,
    client,
  });
}

/** Declines the higher price and stops auto-renewal (the licence runs to the end of its paid period). */
export function declinePriceRise(userLicenseId: string, token: string | null, client?: ApiClient): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/{user_license_id}/price-rise/decline', {
    params: { user_license_id: userLicenseId },
    token,
    client,
  });
}
