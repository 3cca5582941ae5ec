import { describe, expect, it } from 'vitest';
import { discountPercent, discountText, remainingDiscount } from './discount';

describe('discountPercent', () => {
  it.each([
    [0.3, 30],
    [0.155, 15],
    [0.999, 99],
    [0.29, 29],
    [0.57, 57],
    [1, 100],
    [0, 0],
    [null, 0],
    [undefined, 0],
    [-0.1, 0],
    [Number.NaN, 0],
  ])('%s -> %s%%', (fraction, expected) => {
    expect(discountPercent(fraction)).toBe(expected);
  });
});

describe('remainingDiscount', () => {
  it('is the discounted price minus the remaining price', () => {
    expect(remainingDiscount(39000, 30000)).toBe(9000);
    expect(remainingDiscount(39000, 39000)).toBe(0);
  });

  it('is zero without a remaining price', () => {
    expect(remainingDiscount(39000, null)).toBe(0);
    expect(remainingDiscount(39000, undefined)).toBe(0);
  });
});

describe('discountText', () => {
  it('joins base, remaining and coupon discounts with " + "', () => {
    expect(discountText({ base: 0.3, remaining: 5000, coupon: 0.1, currency: 'KRW' }, 'ko')).toBe('30% + 5,000원 + 10%');
    expect(discountText({ base: 0.3, remaining: 250, coupon: 0.1, currency: 'USD' }, 'en')).toBe('30% + $2.50 + 10%');
  });

  it('leaves out the parts that are zero or missing', () => {
    expect(discountText({ base: 0.3, remaining: 0, coupon: 0, currency: 'KRW' }, 'ko')).toBe('30%');
    expect(discountText({ coupon: 0.15, currency: 'KRW' }, 'en')).toBe('15%');
    expect(discountText({ remaining: 9000, currency: 'KRW' }, 'en')).toBe('9,000 KRW');
    expect(discountText({ base: 0.3, coupon: 0.2, currency: 'JPY' }, 'ja')).toBe('30% + 20%');
  });

  it('is empty without any discount', () => {
    expect(discountText({ currency: 'KRW' }, 'ko')).toBe('');
    expect(discountText({ base: 0.004, currency: 'KRW' }, 'ko')).toBe('');
  });
});
