/** How payment records read in the purchase history (spec section 3, "Payment record"). */
import type { PaymentRecord } from '../../api/models';

/** The record's status; a cancelled payment with a refunded amount shows as refunded. */
export function paymentStatus(record: Pick<PaymentRecord, 'status' | 'cancelAmount'>): string {
  const { status } = record;
  if (status === 'cancelled' && record.cancelAmount > 0) return 'refunded';
  return status;
}

/** The catalogue's label for a key, or the key itself (unknown methods and states are shown raw). */
export function labelOf(labels: Record<string, string>, key: string | null | undefined): string {
  if (!key) return '-';
  return labels[key] ?? key;
}

/** Pay method label: kakaopay and naverpay are told by their gateway even though they pay by card. */
export function payMethodKey(record: Pick<PaymentRecord, 'payMethod' | 'pgProvider'>): string | null {
  const provider = record.pgProvider?.toLowerCase();
  if (provider === 'kakaopay' || provider === 'naverpay') return provider;
  return record.payMethod ?? null;
}
