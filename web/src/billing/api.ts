/**
 * Billing calls that more than one feature makes, typed from the server's schema: the PortOne
 * settings, and the billing-key window's calls (a purchase subscribes with the key, a licence
 * resumes or changes its payment method with it).
 */
import type { ApiClient } from '../api/client';
import type {
  BillingKey,
  BillingKeyWindow,
  Subscription,
  WindowKeySubscriptionBody,
} from '../api/models';
import { apiGet, apiPost, apiPut } from '../api/typed';
import type { KeyRequestType } from './paymentMethods';
import { preparePortOne, type Imp } from './portone';
import { appStore } from '../store';

/** IMP, loaded and initialised once per page life with the payment settings the app store fetched once;
 * pages call it early so the gateway's window opens at once. */
export function loadPortOne(): Promise<Imp> {
  return preparePortOne(() => appStore.getState().loadPaymentSettings());
}

/** A customerUid for a PG window to issue a billing key under (guests too: the token is optional). */
export function openKeyWindow(requestType: KeyRequestType, token: string | null, client?: ApiClient): Promise<BillingKeyWindow> {
  return apiGet('/billingkeys/customerUid', { query: { requestType }, token, client });
}

/** Keeps the key a PG window issued in the wallet (the same customerUid again is the same key). */
export function addWindowBillingKey(customerUid: string, token: string | null, client?: ApiClient): Promise<BillingKey> {
  return apiPut('/billingkeys', { body: { customerUid }, token, client });
}

/** Makes renewals charge another registered billing key. */
export function changePaymentMethod(
  userLicenseId: string,
  billingkeyId: string,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPut('/payments/licenses/subscribe/{user_license_id}/billingkey', {
    params: { user_license_id: userLicenseId },
    body: { billingkeyId },
    token,
    client,
  });
}

/** Resumes (within the paid period) or re-subscribes with the key a PG window just issued. */
export function resumeWithWindowKey(
  userLicenseId: string,
  customerUid: string,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/re-subscribe/new-billingkey/redirect', {
    body: { userLicenseId, customerUid },
    token,
    client,
  });
}

/** Subscribes to a licence with a PG window's key (guests by email). */
export function subscribeWithWindowKey(
  body: WindowKeySubscriptionBody,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/new/new-billingkey/redirect', { body, token, client });
}

/** Upgrades a subscription with a PG window's key (the popup's callback or a phone's redirect return). */
export function upgradeWithWindowKey(
  userLicenseId: string,
  licenseId: number,
  customerUid: string,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/upgrade/new-billingkey/redirect', {
    body: { userLicenseId, licenseId, customerUid },
    token,
    client,
  });
}
