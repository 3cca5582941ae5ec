/** How payment records read in the purchase history (spec section 3, "Payment record"). */
import type { PaymentRecord } from '../../api/models';

/** The record's status: what refunds left of a paid payment (refunded, partly refunded, a refund in progress) before
 * its own state; a cancelled payment with a refunded amount shows as refunded. */
export function paymentStatus(
  record: Pick<PaymentRecord, 'status' | 'cancelAmount'> & Partial<Pick<PaymentRecord, 'refundState'>>,
): string {
  const { status } = record;
  if (record.refundState) return record.refundState;
  if (status === 'cancelled' && record.cancelAmount > 0) return 'refunded';
  return status;
}

/** The latest refund of a record (its amount and time), if any. */
export function latestRefund(record: Pick<PaymentRecord, 'refunds'>): PaymentRecord['refunds'][number] | undefined {
  return record.refunds?.[record.refunds.length - 1];
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

/**
 * A gateway's name as people know it (issue 29, finding 16: the receipt showed "nice / kcp_billing"). A gateway code
 * is its name's key with the channel after it ("kcp_billing", "html5_inicis", "paypal_v2"); several are joined by
 * "/". A gateway the catalogue does not know keeps its code.
 */
export function pgProviderName(names: Record<string, string>, provider: string | null | undefined): string | undefined {
  if (!provider) return undefined;
  const shown = provider
    .split('/')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
    .map((code) => {
      const key = Object.keys(names).find((name) => code === name || code.split('_').includes(name));
      return key ? names[key]! : code;
    });
  return [...new Set(shown)].join(', ') || undefined;
}

const CARD_BRANDS: Record<string, string> = {
  MASTER: 'Mastercard',
  MASTERCARD: 'Mastercard',
  VISA: 'Visa',
  AMEX: 'American Express',
  JCB: 'JCB',
  UNIONPAY: 'UnionPay',
  DINERS: 'Diners Club',
  DISCOVER: 'Discover',
};

/** A card's name as its brand writes it ("MASTER" is Mastercard); a card company's own name is kept. */
export function cardBrandName(name: string | null | undefined): string | undefined {
  if (!name) return undefined;
  return CARD_BRANDS[name.trim().toUpperCase()] ?? name;
}

/**
 * The payment's discounts worded as its quote worded them ("30% + 2,899원"): base and coupon as percents, an upgrade's
 * credit as the amount it took off. The credit is what lies between the price after the base discount and the price
 * the coupon (if any) came off.
 */
export function recordDiscountParts(
  record: Pick<PaymentRecord, 'discountFactors' | 'originalAmount' | 'amount'>,
): { base: number; remaining: number; coupon: number } {
  const factor = (type: string) => Number(record.discountFactors.find((item) => item.type === type)?.factor ?? 0);
  const base = factor('base');
  const coupon = factor('coupon');
  if (!(factor('remaining') > 0)) return { base, remaining: 0, coupon };
  const afterBase = Math.floor(Math.round(record.originalAmount * (1 - base) * 1e6) / 1e6);
  let beforeCoupon = record.amount;
  if (coupon > 0) {
    beforeCoupon = Math.ceil(record.amount / (1 - coupon));
    while (Math.floor(beforeCoupon * (1 - coupon)) > record.amount) beforeCoupon -= 1;
  }
  return { base, remaining: Math.max(0, afterBase - beforeCoupon), coupon };
}
