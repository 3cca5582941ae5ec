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

export type SubscriptionView = 'renewing' | 'cancelled' | 'ended';

/**
 * What the section offers: a renewing subscription can be cancelled and its card changed; a
 * cancelled one (or one past due) can be resumed; an ended one can be re-subscribed.
 */
export function subscriptionView(subscription: Pick<Subscription, 'status' | 'isScheduled'>): SubscriptionView {
  if (subscription.status === 'ended') return 'ended';
  if (subscription.status === 'active' && subscription.isScheduled) return 'renewing';
  return 'cancelled';
}
