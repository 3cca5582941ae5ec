/** How a subscription reads on the licence detail page. */
import type { BillingKey, Subscription } from '../../api/models';

/**
 * A card number for display: the server's masked number as it is; an unmasked one keeps only its
 * last 4 digits. Empty when there is none.
 */
export function maskCardNumber(cardNumber: string | null | undefined): string {
  const value = (cardNumber ?? '').trim();
  if (value === '') return '';
  if (/[*•xX]/.test(value)) return value;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 4) return value;
  return `**** **** **** ${digits.slice(-4)}`;
}

/** "Card name ****1111" for a subscription or a billing key; the fallback when there is no card. */
export function paymentMethodText(card: Pick<BillingKey, 'cardName' | 'cardNumber'>, fallback: string): string {
  const parts = [card.cardName?.trim() ?? '', maskCardNumber(card.cardNumber)].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' ') : fallback;
}

/** Which of the subscription's dates the page shows, and under which label. */
export type SubscriptionDate =
  | { kind: 'nextPayment'; at: string | number | null | undefined }
  | { kind: 'retryAt'; at: string | number | null | undefined }
  | { kind: 'paidUntil'; at: string | number | null | undefined };

/**
 * A renewing subscription shows its next payment; one past due the next retry of the failed payment
 * (the server's nextPaymentAt either way); one that charges nothing more the end of its paid period.
 */
export function subscriptionDate(subscription: Pick<Subscription, 'status' | 'nextPaymentAt' | 'paidUntil'>): SubscriptionDate {
  if (subscription.nextPaymentAt == null) return { kind: 'paidUntil', at: subscription.paidUntil };
  if (subscription.status === 'past_due') return { kind: 'retryAt', at: subscription.nextPaymentAt };
  return { kind: 'nextPayment', at: subscription.nextPaymentAt };
}
