/**
 * The browser side of PortOne V1 (design/portone-v1.md, "The browser side"): the `IMP` script is
 * loaded once from the address GET /payments/settings gives (the sandbox's iamport.js in dev and
 * test), `IMP.request_pay` opens the gateway's window, and its callback, or on mobile the
 * redirect to `m_redirect_url` with `imp_uid`, `merchant_uid` and `imp_success`, says how it went.
 * The outcome only tells the page what to do next: the server re-reads every payment on confirm.
 */
import type { PaymentSettings } from '../api/models';
import { readSessionRecord, removeSessionRecord, writeSessionRecord } from '../browser/sessionRecord';

/** Parameters of IMP.request_pay that the storefront passes. */
export interface RequestPayParams {
  pg: string;
  pay_method: string;
  merchant_uid: string;
  name: string;
  amount: number;
  buyer_email: string;
  currency: string;
  m_redirect_url: string;
  customer_uid?: string;
}

/** What request_pay's callback receives (only the fields the page reads). */
export interface ImpResponse {
  success?: boolean | string | null;
  imp_success?: boolean | string | null;
  imp_uid?: string | null;
  merchant_uid?: string | null;
  error_code?: string | null;
  error_msg?: string | null;
  status?: string | null;
}

export interface Imp {
  init(code: string): void;
  request_pay(params: RequestPayParams, callback: (response: ImpResponse) => void): void;
}

/** Spec section 8: -300, approval refused by the card company or gateway (what a failed window reads as). */
export const GATEWAY_REFUSED = -300;

export type PayOutcome =
  | { kind: 'success'; impUid: string; merchantUid: string }
  | { kind: 'cancelled'; merchantUid: string | null; message: string | null }
  | { kind: 'failed'; merchantUid: string | null; code: string | null; message: string | null };

const USER_CANCEL_CODES = new Set(['USER_CANCEL', 'STOP']);
const USER_CANCEL_MESSAGE = /사용자가 결제를 취소|user cancel|cancelled by the user|window was closed/i;

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Reads request_pay's callback object: success (with imp_uid), closed by the user, or failed. */
export function payOutcome(response: ImpResponse | null | undefined): PayOutcome {
  const rsp = response ?? {};
  const merchantUid = text(rsp.merchant_uid);
  const impUid = text(rsp.imp_uid);
  const succeeded = rsp.success !== undefined && rsp.success !== null ? isTrue(rsp.success) : isTrue(rsp.imp_success);
  if (succeeded && impUid && merchantUid) return { kind: 'success', impUid, merchantUid };
  const code = text(rsp.error_code);
  const message = text(rsp.error_msg);
  if ((code && USER_CANCEL_CODES.has(code.toUpperCase())) || (message && USER_CANCEL_MESSAGE.test(message))) {
    return { kind: 'cancelled', merchantUid, message };
  }
  return { kind: 'failed', merchantUid, code, message };
}

/**
 * The outcome carried by the query of the redirect back from the gateway (`m_redirect_url`), or
 * null when the query holds no payment (a plain visit of the page).
 */
export function redirectOutcome(search: string): PayOutcome | null {
  const params = new URLSearchParams(search);
  if (!params.has('imp_uid') && !params.has('merchant_uid')) return null;
  return payOutcome({
    imp_uid: params.get('imp_uid'),
    merchant_uid: params.get('merchant_uid'),
    imp_success: params.get('imp_success'),
    success: params.get('success'),
    error_code: params.get('error_code'),
    error_msg: params.get('error_msg'),
  });
}

declare global {
  interface Window {
    IMP?: Imp;
  }
}

const scripts = new Map<string, Promise<Imp>>();

/** Adds the script once per address; a failed load is forgotten so that a later call retries. */
export function loadImpScript(scriptUrl: string, doc: Document = document): Promise<Imp> {
  const cached = scripts.get(scriptUrl);
  if (cached) return cached;
  const promise = new Promise<Imp>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onload = () => {
      const imp = doc.defaultView?.IMP;
      if (imp) resolve(imp);
      else reject(new Error('the PortOne script did not define IMP'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`could not load ${scriptUrl}`));
    };
    doc.head.append(script);
  });
  promise.catch(() => scripts.delete(scriptUrl));
  scripts.set(scriptUrl, promise);
  return promise;
}

let prepared: Promise<Imp> | null = null;

/**
 * IMP, initialised with the merchant code: settings are read and the script loaded once per page
 * life. Pages call it early (on mount) so that the gateway's window opens right after the order.
 */
export function preparePortOne(getSettings: () => Promise<PaymentSettings>): Promise<Imp> {
  if (prepared) return prepared;
  const promise = getSettings().then(async (settings) => {
    const imp = await loadImpScript(settings.scriptUrl);
    imp.init(settings.impCode);
    return imp;
  });
  promise.catch(() => {
    if (prepared === promise) prepared = null;
  });
  prepared = promise;
  return promise;
}

/** request_pay as a promise. With a blocked popup the page is sent away and it never settles. */
export function requestPay(imp: Imp, params: RequestPayParams): Promise<ImpResponse> {
  return new Promise((resolve) => imp.request_pay(params, resolve));
}

/** The order in flight, kept for the redirect return (which knows only the merchantUid). */
export interface PendingOrder {
  merchantUid: string;
  licenseId: number;
}

const PENDING_KEY = 'unicornpro.pendingOrder';

/** Keeps the order for the redirect return. */
export function savePendingOrder(order: PendingOrder, storage: Storage | undefined = globalThis.sessionStorage): void {
  writeSessionRecord(PENDING_KEY, order, storage);
}

/** The kept order whose merchantUid the redirect names (any kept order when it names none), or null. */
export function readPendingOrder(
  merchantUid: string | null,
  storage: Storage | undefined = globalThis.sessionStorage,
): PendingOrder | null {
  const order = readSessionRecord(PENDING_KEY, storage) as Partial<PendingOrder> | null | undefined;
  if (typeof order?.merchantUid !== 'string' || typeof order.licenseId !== 'number') return null;
  if (merchantUid !== null && order.merchantUid !== merchantUid) return null;
  return { merchantUid: order.merchantUid, licenseId: order.licenseId };
}

/** Forgets the kept order. */
export function clearPendingOrder(storage: Storage | undefined = globalThis.sessionStorage): void {
  removeSessionRecord(PENDING_KEY, storage);
}
