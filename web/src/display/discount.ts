/**
 * Discount display (spec section 9): percent = fraction x 100 rounded down; the discount text joins
 * the base, remaining and coupon discounts with ' + '; the remaining discount is the discounted
 * price minus the remaining price, shown when non-zero.
 */
import type { Lang } from '../i18n/languages';
import { formatPrice } from './currency';

/** 0.3 -> 30, 0.155 -> 15, 0.29 -> 29 (not 28: the float error of 0.29 x 100 is absorbed). */
export function discountPercent(fraction: number | null | undefined): number {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction) || fraction <= 0) return 0;
  return Math.floor(Math.round(fraction * 100 * 1e6) / 1e6);
}

/** Discounted price minus remaining price (credit of the current licence when upgrading). */
export function remainingDiscount(discountedPrice: number, remainingPrice: number | null | undefined): number {
  if (remainingPrice === null || remainingPrice === undefined) return 0;
  return discountedPrice - remainingPrice;
}

export interface DiscountParts {
  /** Base discount of the licence, as a fraction (0.3 for 30%). */
  base?: number | null;
  /** Remaining discount as an amount in the currency's smallest unit; shown when non-zero. */
  remaining?: number | null;
  /** Coupon discount, as a fraction. */
  coupon?: number | null;
  currency: string;
}

/** '30% + 5,000원 + 10%': the non-zero discounts, base then remaining then coupon. Empty when none. */
export function discountText({ base, remaining, coupon, currency }: DiscountParts, lang: Lang): string {
  const parts: string[] = [];
  const basePercent = discountPercent(base);
  if (basePercent > 0) parts.push(`${basePercent}%`);
  if (remaining !== null && remaining !== undefined && remaining !== 0) parts.push(formatPrice(remaining, currency, lang));
  const couponPercent = discountPercent(coupon);
  if (couponPercent > 0) parts.push(`${couponPercent}%`);
  return parts.join(' + ');
}
