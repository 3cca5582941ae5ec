/**
 * Billing keys issued in a PG window (design/portone-v1.md, "The browser side"): GET
 * /billingkeys/customerUid gives a customerUid, IMP.request_pay with it and an amount of 0 opens
 * the window (KakaoPay, Naver Pay or a card window) that issues the key, and the page hands the
 * customerUid to the call it was making: subscribe, resume, change the payment method, or upgrade.
 *
 * A phone comes back through `m_redirect_url` (the confirm page) instead of the popup's callback;
 * the pending window, kept in session storage, says what the page was doing. Written against
 * injected calls so that every outcome can be tested without a browser or a server.
 */
import type { BillingKey, BillingKeyWindow, Subscription, WindowKeySubscriptionBody } from '../api/models';
import { readSessionRecord, removeSessionRecord, writeSessionRecord } from '../browser/sessionRecord';
import { toFeatureError, type FeatureError } from '../errors/featureError';
import type { KeyRequestType } from './paymentMethods';
import {
  GATEWAY_REFUSED,
  payOutcome,
  type Imp,
  type ImpResponse,
  type PayOutcome,
  type RequestPayParams,
} from './portone';

/** What the page was doing when it opened the window. */
export type KeyIntent =
  | { kind: 'subscribe'; licenseId: number; countryCode: string; email?: string; code?: string }
  | { kind: 'resume'; userLicenseId: string }
  | { kind: 'changeMethod'; userLicenseId: string }
  | { kind: 'upgrade'; userLicenseId: string; licenseId: number };

/** The window in flight, kept for the redirect return (which knows only the merchantUid). */
export interface PendingKeyWindow {
  merchantUid: string;
  customerUid: string;
  intent: KeyIntent;
}

export type KeyWindowOutcome =
  | { kind: 'issued'; customerUid: string }
  /** The customer closed the window (spec: STOP). */
  | { kind: 'cancelled' }
  | { kind: 'failed'; error: FeatureError; gatewayMessage: string | null };

export interface KeyWindowDeps {
  openKeyWindow: (requestType: KeyRequestType, token: string | null) => Promise<BillingKeyWindow>;
  /** IMP, loaded and initialised. */
  portOne: () => Promise<Imp>;
  requestPay: (imp: Imp, params: RequestPayParams) => Promise<ImpResponse>;
  savePending: (pending: PendingKeyWindow) => void;
}

export interface KeyWindowRequest {
  requestType: KeyRequestType;
  intent: KeyIntent;
  /** What the window shows as the order (the licence, or "automatic payment"). */
  name: string;
  buyerEmail: string;
  /** Absolute address a phone is sent back to (/{lang}/payment/confirm). */
  redirectUrl: string;
  token: string | null;
}

/** Opens the PG window for a new billing key and says whether it issued one. */
export async function issueKeyInWindow(request: KeyWindowRequest, deps: KeyWindowDeps): Promise<KeyWindowOutcome> {
  let window: BillingKeyWindow;
  let imp: Imp;
  try {
    [window, imp] = await Promise.all([deps.openKeyWindow(request.requestType, request.token), deps.portOne()]);
  } catch (error) {
    return { kind: 'failed', error: toFeatureError(error), gatewayMessage: null };
  }
  deps.savePending({ merchantUid: window.merchantUid, customerUid: window.customerUid, intent: request.intent });
  const response = await deps.requestPay(imp, {
    pg: window.pg,
    pay_method: window.payMethod,
    merchant_uid: window.merchantUid,
    customer_uid: window.customerUid,
    name: request.name,
    amount: window.amount,
    currency: window.currency,
    buyer_email: request.buyerEmail,
    m_redirect_url: request.redirectUrl,
  });
  return keyWindowOutcome(payOutcome(response), window.customerUid);
}

/** The window's outcome (from its callback or the redirect's query) as far as the billing key goes. */
export function keyWindowOutcome(outcome: PayOutcome, customerUid: string): KeyWindowOutcome {
  if (outcome.kind === 'success') return { kind: 'issued', customerUid };
  if (outcome.kind === 'cancelled') return { kind: 'cancelled' };
  return { kind: 'failed', error: { code: GATEWAY_REFUSED }, gatewayMessage: outcome.message };
}

/** The server calls that use a window's key, one per intent. */
export interface KeyIntentCalls {
  subscribe: (body: WindowKeySubscriptionBody, token: string | null) => Promise<Subscription>;
  resume: (userLicenseId: string, customerUid: string, token: string | null) => Promise<Subscription>;
  addKey: (customerUid: string, token: string | null) => Promise<BillingKey>;
  changeMethod: (userLicenseId: string, billingkeyId: string, token: string | null) => Promise<Subscription>;
  upgrade: (userLicenseId: string, licenseId: number, customerUid: string, token: string | null) => Promise<Subscription>;
}

export type KeyWindowSettlement =
  | { kind: 'subscribed'; subscription: Subscription }
  | { kind: 'updated'; intent: Exclude<KeyIntent, { kind: 'subscribe' } | { kind: 'upgrade' }>; subscription: Subscription }
  | { kind: 'upgraded'; subscription: Subscription }
  | { kind: 'failed'; intent: KeyIntent; error: FeatureError; gatewayMessage: string | null };

/** After the window: does what the page meant to do with the new key, or says why it cannot. */
export async function settleKeyWindow(
  intent: KeyIntent,
  outcome: KeyWindowOutcome,
  token: string | null,
  calls: KeyIntentCalls,
): Promise<KeyWindowSettlement> {
  if (outcome.kind === 'cancelled') return { kind: 'failed', intent, error: { code: 'STOP' }, gatewayMessage: null };
  if (outcome.kind === 'failed') return { kind: 'failed', intent, error: outcome.error, gatewayMessage: outcome.gatewayMessage };
  const { customerUid } = outcome;
  try {
    switch (intent.kind) {
      case 'subscribe': {
        const { licenseId, countryCode, email, code } = intent;
        const body = { licenseId, countryCode, customerUid, ...(email ? { email } : {}), ...(code ? { code } : {}) };
        return { kind: 'subscribed', subscription: await calls.subscribe(body, token) };
      }
      case 'resume':
        return { kind: 'updated', intent, subscription: await calls.resume(intent.userLicenseId, customerUid, token) };
      case 'changeMethod': {
        const key = await calls.addKey(customerUid, token);
        return { kind: 'updated', intent, subscription: await calls.changeMethod(intent.userLicenseId, key.billingkeyId, token) };
      }
      case 'upgrade':
        return {
          kind: 'upgraded',
          subscription: await calls.upgrade(intent.userLicenseId, intent.licenseId, customerUid, token),
        };
    }
  } catch (error) {
    return { kind: 'failed', intent, error: toFeatureError(error), gatewayMessage: null };
  }
}

/** Everything the popup path needs: the window's calls, the calls that use its key, and forgetting it. */
export interface KeyWindowRun extends KeyWindowDeps {
  calls: KeyIntentCalls;
  clearPending: () => void;
}

/** The popup path whole: open the window, do what it was opened for, forget the pending window. */
export async function runKeyWindow(request: KeyWindowRequest, run: KeyWindowRun): Promise<KeyWindowSettlement> {
  const outcome = await issueKeyInWindow(request, run);
  const settled = await settleKeyWindow(request.intent, outcome, request.token, run.calls);
  run.clearPending();
  return settled;
}

const PENDING_KEY = 'unicornpro.pendingKeyWindow';

/** Keeps the window in flight for the redirect return. */
export function savePendingKeyWindow(pending: PendingKeyWindow, storage?: Storage): void {
  writeSessionRecord(PENDING_KEY, pending, storage);
}

/** The pending window whose merchantUid the redirect names, or null. */
export function readPendingKeyWindow(merchantUid: string | null, storage?: Storage): PendingKeyWindow | null {
  const pending = readSessionRecord(PENDING_KEY, storage) as Partial<PendingKeyWindow> | null | undefined;
  if (typeof pending?.merchantUid !== 'string' || typeof pending.customerUid !== 'string' || !isIntent(pending.intent)) {
    return null;
  }
  if (pending.merchantUid !== merchantUid) return null;
  return { merchantUid: pending.merchantUid, customerUid: pending.customerUid, intent: pending.intent };
}

/** Forgets the window in flight. */
export function clearPendingKeyWindow(storage?: Storage): void {
  removeSessionRecord(PENDING_KEY, storage);
}

function isIntent(value: unknown): value is KeyIntent {
  if (typeof value !== 'object' || value === null) return false;
  const intent = value as Record<string, unknown>;
  if (intent.kind === 'subscribe') return typeof intent.licenseId === 'number' && typeof intent.countryCode === 'string';
  if (intent.kind === 'upgrade') return typeof intent.licenseId === 'number' && typeof intent.userLicenseId === 'string';
  return (intent.kind === 'resume' || intent.kind === 'changeMethod') && typeof intent.userLicenseId === 'string';
}
