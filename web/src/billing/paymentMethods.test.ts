import { describe, expect, it } from 'vitest';
import { isKeyRequestType, KEY_REQUEST_TYPES, PAYMENT_METHODS } from './paymentMethods';

describe('payment methods', () => {
  it('issues billing keys only in card, KakaoPay and Naver Pay windows', () => {
    expect(KEY_REQUEST_TYPES.every((method) => (PAYMENT_METHODS as readonly string[]).includes(method))).toBe(true);
    expect(isKeyRequestType('kakaopay')).toBe(true);
    expect(isKeyRequestType('virtualAccount')).toBe(false);
    expect(isKeyRequestType(undefined)).toBe(false);
  });
});
