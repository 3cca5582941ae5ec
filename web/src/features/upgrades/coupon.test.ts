import { describe, expect, it } from 'vitest';
import { isCouponRefusal } from './coupon';

describe('a coupon refusal on the upgrade page', () => {
  it('is any of the coupon and promotion codes, -601 to -615', () => {
    expect([-601, -604, -613, -615].map((code) => isCouponRefusal({ code }))).toEqual([true, true, true, true]);
  });

  it('is not a missing licence, a network failure or another payment error', () => {
    expect([-109, -300, -616, -600].map((code) => isCouponRefusal({ code }))).toEqual([false, false, false, false]);
  });
});
