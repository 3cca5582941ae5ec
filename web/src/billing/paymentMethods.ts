/** How a buyer can pay (spec section 3, "Payment methods"), as the purchase and subscription pages offer them. */

/**
 * Methods of a one-time purchase through the gateway's window that the page knows how to show; which of
 * them a visitor is offered is the server's word (GET /payments/settings, by the currency they pay in).
 */
export const PAYMENT_METHODS = ['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay', 'point'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Methods whose PG window issues a billing key (GET /billingkeys/customerUid?requestType). */
export const KEY_REQUEST_TYPES = ['creditCard', 'kakaopay', 'naverpay'] as const;
export type KeyRequestType = (typeof KEY_REQUEST_TYPES)[number];

/** Methods that exist only as a window (a card can also be typed on the page). */
export const WINDOW_ONLY_METHODS = ['kakaopay', 'naverpay'] as const satisfies readonly KeyRequestType[];

/** Whether a method can issue a billing key in a PG window. */
export function isKeyRequestType(method: string | undefined): method is KeyRequestType {
  return (KEY_REQUEST_TYPES as readonly string[]).includes(method ?? '');
}
