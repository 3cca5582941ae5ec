/**
 * The purchase flow of spec section 4: order (POST /payments/licenses/new), pay in the gateway's
 * window (IMP.request_pay), confirm (POST /payments/licenses/new/confirm). Written against
 * injected calls so that its outcomes can be tested without a browser or a server.
 */
import type { Lang } from '../../i18n/languages';
import { FALLBACK_ERROR_CODE } from '../../api/errors';
import type { ConfirmedPurchase, PaymentRequest, PurchaseOrderBody } from '../../api/models';
import {
  GATEWAY_REFUSED,
  payOutcome,
  type Imp,
  type ImpResponse,
  type PendingOrder,
  type RequestPayParams,
} from '../../billing/portone';
import { isNetworkFailureText, toFeatureError, type FeatureError } from '../../errors/featureError';

export interface PurchaseDeps {
  /** The access token of a logged-in buyer, null for a guest. */
  getToken: () => Promise<string | null>;
  postPurchase: (body: PurchaseOrderBody, token: string | null) => Promise<PaymentRequest>;
  postConfirm: (body: { impUid: string; merchantUid: string }, lang: Lang, token: string | null) => Promise<ConfirmedPurchase>;
  /** IMP, loaded and initialised. */
  portOne: () => Promise<Imp>;
  requestPay: (imp: Imp, params: RequestPayParams) => Promise<ImpResponse>;
  /** Remembers the order for a redirect return. */
  savePending: (order: PendingOrder) => void;
}

export type PurchaseResult =
  /** The order was refused (or the script could not load): stay on the page and say why. */
  | { kind: 'orderFailed'; error: FeatureError }
  /** Paid (or a virtual account issued) and confirmed by the server. */
  | { kind: 'confirmed'; confirmation: ConfirmedPurchase }
  /** The window was closed, the gateway refused, or the confirmation failed. */
  | { kind: 'paymentFailed'; error: FeatureError; gatewayMessage: string | null };

const confirmations = new Map<string, Promise<ConfirmedPurchase>>();

/**
 * One confirmation per merchantUid at a time: the popup's callback and a page that mounts twice
 * (or a reload of the redirect return) share the same call. A failure is forgotten for retries.
 */
export function confirmOnce(merchantUid: string, run: () => Promise<ConfirmedPurchase>): Promise<ConfirmedPurchase> {
  const running = confirmations.get(merchantUid);
  if (running) return running;
  const promise = run();
  promise.catch(() => confirmations.delete(merchantUid));
  confirmations.set(merchantUid, promise);
  return promise;
}

export interface PurchaseOrder {
  request: PurchaseOrderBody;
  lang: Lang;
  /** Absolute address the gateway sends a mobile browser back to (/{lang}/payment/confirm). */
  redirectUrl: string;
}

/** The whole purchase: order, the gateway's window, then the confirmation or why it failed. */
export async function runPurchase({ request, lang, redirectUrl }: PurchaseOrder, deps: PurchaseDeps): Promise<PurchaseResult> {
  let token: string | null;
  let init: PaymentRequest;
  let imp: Imp;
  try {
    token = await deps.getToken();
    [init, imp] = await Promise.all([deps.postPurchase(request, token), deps.portOne()]);
  } catch (error) {
    return { kind: 'orderFailed', error: toFeatureError(error) };
  }
  if (init.payMethod === 'none' && init.impUid) {
    // Nothing to pay (a coupon took the whole price): no window, the server settles it on confirm.
    return settlePayment({ kind: 'success', impUid: init.impUid, merchantUid: init.merchantUid }, lang, token, deps);
  }
  deps.savePending({ merchantUid: init.merchantUid, licenseId: request.licenseId });
  const response = await deps.requestPay(imp, {
    pg: init.pg,
    pay_method: init.payMethod,
    merchant_uid: init.merchantUid,
    name: init.name,
    amount: init.amount,
    buyer_email: init.buyerEmail,
    currency: init.currency,
    m_redirect_url: redirectUrl,
  });
  return settlePayment(payOutcome(response), lang, token, deps);
}

/** After the gateway's window: confirm a success, or say why it failed. */
export async function settlePayment(
  outcome: ReturnType<typeof payOutcome>,
  lang: Lang,
  token: string | null,
  deps: Pick<PurchaseDeps, 'postConfirm'>,
): Promise<Exclude<PurchaseResult, { kind: 'orderFailed' }>> {
  if (outcome.kind === 'cancelled') {
    return { kind: 'paymentFailed', error: { code: 'STOP' }, gatewayMessage: null };
  }
  if (outcome.kind === 'failed') {
    // A window that could not reach the gateway is the connection's failure, not the card company's refusal.
    if (isNetworkFailureText(outcome.message)) {
      return { kind: 'paymentFailed', error: { code: FALLBACK_ERROR_CODE, network: true }, gatewayMessage: null };
    }
    return { kind: 'paymentFailed', error: { code: GATEWAY_REFUSED }, gatewayMessage: outcome.message };
  }
  try {
    const confirmation = await confirmOnce(outcome.merchantUid, () =>
      deps.postConfirm({ impUid: outcome.impUid, merchantUid: outcome.merchantUid }, lang, token),
    );
    return { kind: 'confirmed', confirmation };
  } catch (error) {
    const failure = toFeatureError(error);
    return {
      kind: 'paymentFailed',
      error: failure.code === undefined ? { code: FALLBACK_ERROR_CODE } : failure,
      gatewayMessage: null,
    };
  }
}
