/**
 * What the purchase page does with an order, decided from the choices on it (pure, tested in
 * checkout.test.ts): which flow pays, which methods it offers, what the order says of the buyer,
 * and where the page goes once a one-time purchase is settled.
 */
import {
  isKeyRequestType,
  KEY_REQUEST_TYPES,
  PAYMENT_METHODS,
  type KeyRequestType,
  type PaymentMethod,
} from '../../billing/paymentMethods';
import type { PaymentSettings } from '../../api/models';
import type { FeatureError } from '../../errors/featureError';
import type { BoundPaths } from '../../routing/paths';
import { isSubscriptionLife } from './catalogue';
import { BILLING_KEY_SUBSCRIPTIONS } from './config';
import type { PurchaseResult } from './flow';

/**
 * - `oneTime`: an order paid in the gateway's window (any method);
 * - `cardSubscription`: a member's auto-renewal with the card typed on the page;
 * - `windowSubscription`: an auto-renewal whose billing key a PG window issues (KakaoPay, Naver
 *   Pay, or the card window, which is how a guest subscribes by card).
 */
export type CheckoutKind = 'oneTime' | 'cardSubscription' | 'windowSubscription';

/** Whether a period can renew automatically (monthly or annual, with billing keys switched on). */
export function canAutoRenew(life: number | undefined): boolean {
  return BILLING_KEY_SUBSCRIPTIONS && life !== undefined && isSubscriptionLife(life);
}

/** The flow that pays for the order. */
export function checkoutKind(choice: { subscribing: boolean; member: boolean; method: string | undefined }): CheckoutKind {
  if (!choice.subscribing || !isKeyRequestType(choice.method)) return 'oneTime';
  return choice.member && choice.method === 'creditCard' ? 'cardSubscription' : 'windowSubscription';
}

/** What the server offers this visitor (GET /payments/settings). */
export type OfferedMethods = Pick<PaymentSettings, 'paymentMethods' | 'billingKeyMethods'>;

/**
 * Methods offered: those the server offers for a one-time purchase in the visitor's currency, or its
 * billing-key windows for an auto-renewal (only methods the page knows how to show).
 */
export function methodChoices(subscribing: boolean, offered: OfferedMethods): readonly PaymentMethod[] {
  const known: readonly PaymentMethod[] = subscribing ? KEY_REQUEST_TYPES : PAYMENT_METHODS;
  const allowed: readonly string[] = subscribing ? offered.billingKeyMethods : offered.paymentMethods;
  return known.filter((method) => allowed.includes(method));
}

/** The method kept when auto-renewal is turned on: a method that issues billing keys stays, others become the card. */
export function methodWhenAutoRenewing(method: string | undefined): KeyRequestType {
  return isKeyRequestType(method) ? method : 'creditCard';
}

/** Guests name the account the licence goes to; a member's order is the account's (no email sent). */
export function orderEmail(member: boolean, formEmail: string | undefined): { email?: string } {
  return member ? {} : { email: formEmail ?? '' };
}

/** What the page does after a one-time purchase: say why the order failed, or go to the next page. */
export type PurchaseStep =
  | { kind: 'alert'; error: FeatureError; goHome: boolean }
  | { kind: 'navigate'; to: string; state: unknown };

export function purchaseStep(result: PurchaseResult, licenseId: number, paths: BoundPaths): PurchaseStep {
  switch (result.kind) {
    case 'orderFailed':
      return { kind: 'alert', error: result.error, goHome: result.error.code === -109 };
    case 'confirmed':
      return { kind: 'navigate', to: paths.paymentConfirm(), state: { confirmation: result.confirmation } };
    case 'paymentFailed':
      return {
        kind: 'navigate',
        to: paths.paymentFailure(licenseId, { errorCode: result.error.code }),
        state: { gatewayMessage: result.gatewayMessage, network: result.error.network === true },
      };
  }
}
