/** Subscription and billing-key calls of the licence detail page (bearer). */
import { ApiError, apiClient, type ApiClient } from '../../api/client';
import { requestPay } from '../payments/portone';
import type { SubscriptionResult } from '../payments/types';
import { loadPortOne } from '../purchase/api';
import type { CardBody } from '../purchase/schemas';
import { clearPendingKeyWindow, savePendingKeyWindow, type KeyIntentCalls, type KeyWindowRun } from './window';

export type SubscriptionStatus = 'active' | 'cancelled' | 'past_due' | 'ended';

/** GET/DELETE /payments/licenses/subscribe/{userLicenseId} and the resume calls. */
export interface Subscription {
  subscriptionId: string;
  userLicenseId: string;
  status: SubscriptionStatus | string;
  isScheduled: boolean;
  nextPaymentAt?: string | number | null;
  paidUntil?: string | number | null;
  price: number;
  currency: string;
  licenseName: string;
  cardName?: string | null;
  cardNumber?: string | null;
  resumeComplete?: boolean;
}

export interface BillingKey {
  billingkeyId: string;
  customerUid: string;
  pg: string;
  cardName?: string | null;
  cardNumber?: string | null;
  isDefault: boolean;
}

export interface Wallet {
  billingkeys: BillingKey[];
  defaultBillingkeyId?: string | null;
}

/** Payment methods whose PG window issues a billing key (GET /billingkeys/customerUid?requestType). */
export const KEY_REQUEST_TYPES = ['creditCard', 'kakaopay', 'naverpay'] as const;
export type KeyRequestType = (typeof KEY_REQUEST_TYPES)[number];

/** What request_pay needs for a PG window to issue a billing key (an amount of 0: nothing is charged). */
export interface BillingKeyWindow {
  customerUid: string;
  merchantUid: string;
  pg: string;
  payMethod: string;
  amount: number;
  currency: string;
}

const subscribePath = (userLicenseId: string) => `/payments/licenses/subscribe/${encodeURIComponent(userLicenseId)}`;
const resubscribePath = (userLicenseId: string) => `/payments/licenses/re-subscribe/${encodeURIComponent(userLicenseId)}`;

/** The licence's subscription, or null when it has none (the server answers 404). */
export async function getSubscription(
  userLicenseId: string,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<Subscription | null> {
  try {
    return await api.request<Subscription>(subscribePath(userLicenseId), { token });
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return null;
    throw error;
  }
}

/** Turns auto-renewal off: the licence runs to its paid date, then stops. */
export function cancelAutoRenewal(userLicenseId: string, token: string | null, api: ApiClient = apiClient): Promise<Subscription> {
  return api.request<Subscription>(subscribePath(userLicenseId), { method: 'DELETE', token });
}

/** Resumes (within the paid period) or re-subscribes (after it) with the previous card, or a named key. */
export function resumeWithPreviousCard(
  userLicenseId: string,
  token: string | null,
  billingkeyId?: string,
  api: ApiClient = apiClient,
): Promise<Subscription> {
  return api.request<Subscription>(resubscribePath(userLicenseId), {
    method: 'POST',
    body: billingkeyId ? { billingkeyId } : {},
    token,
  });
}

/** Registers a new card and resumes or re-subscribes with it. */
export function resumeWithNewCard(
  userLicenseId: string,
  card: CardBody,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<Subscription> {
  return api.request<Subscription>(`${resubscribePath(userLicenseId)}/new-billingkey`, { method: 'POST', body: card, token });
}

/** Makes renewals charge another registered billing key. */
export function changePaymentMethod(
  userLicenseId: string,
  billingkeyId: string,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<Subscription> {
  return api.request<Subscription>(`${subscribePath(userLicenseId)}/billingkey`, { method: 'PUT', body: { billingkeyId }, token });
}

/** Resumes (within the paid period) or re-subscribes with the key a PG window just issued. */
export function resumeWithWindowKey(
  userLicenseId: string,
  customerUid: string,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<Subscription> {
  return api.request<Subscription>('/payments/licenses/re-subscribe/new-billingkey/redirect', {
    method: 'POST',
    body: { userLicenseId, customerUid },
    token,
  });
}

export function getBillingKeys(token: string | null, api: ApiClient = apiClient): Promise<Wallet> {
  return api.request<Wallet>('/billingkeys', { token });
}

/** A customerUid for a PG window to issue a billing key under (guests too: the token is optional). */
export function openKeyWindow(requestType: KeyRequestType, token: string | null, api: ApiClient = apiClient): Promise<BillingKeyWindow> {
  return api.request<BillingKeyWindow>('/billingkeys/customerUid', { query: { requestType }, token });
}

/** Keeps the key a PG window issued in the wallet (the same customerUid again is the same key). */
export function addWindowBillingKey(customerUid: string, token: string | null, api: ApiClient = apiClient): Promise<BillingKey> {
  return api.request<BillingKey>('/billingkeys', { method: 'PUT', body: { customerUid }, token });
}

/** Registers a card as a new billing key (-303 refused, -305 bad fields, -308 already registered). */
export function addBillingKey(card: CardBody, token: string | null, api: ApiClient = apiClient): Promise<BillingKey> {
  return api.request<BillingKey>('/billingkeys', { method: 'PUT', body: card, token });
}

/** POST /payments/licenses/subscribe/new/new-billingkey/redirect: subscribes with a PG window's key (guests by email). */
export function subscribeWithWindowKey(
  body: { licenseId: number; countryCode: string; customerUid: string; email?: string },
  token: string | null,
  api: ApiClient = apiClient,
): Promise<SubscriptionResult> {
  return api.request<SubscriptionResult>('/payments/licenses/subscribe/new/new-billingkey/redirect', {
    method: 'POST',
    body,
    token,
  });
}

/** The server calls that use a PG window's key, one per thing a page may be doing. */
export const keyIntentCalls: KeyIntentCalls = {
  subscribe: (body, token) => subscribeWithWindowKey(body, token),
  resume: (userLicenseId, customerUid, token) => resumeWithWindowKey(userLicenseId, customerUid, token),
  addKey: (customerUid, token) => addWindowBillingKey(customerUid, token),
  changeMethod: (userLicenseId, billingkeyId, token) => changePaymentMethod(userLicenseId, billingkeyId, token),
};

/** The key window as the browser runs it: these calls, PortOne's script and the tab's session storage. */
export const browserKeyWindow: KeyWindowRun = {
  openKeyWindow: (requestType, token) => openKeyWindow(requestType, token),
  portOne: loadPortOne,
  requestPay,
  savePending: savePendingKeyWindow,
  clearPending: clearPendingKeyWindow,
  calls: keyIntentCalls,
};
