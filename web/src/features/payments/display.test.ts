import { describe, expect, it } from 'vitest';
import { catalogues } from '../../test/catalogues';
import { cardBrandName, labelOf, payMethodKey, paymentStatus, pgProviderName, recordDiscountParts } from './display';

const ko = catalogues.ko;

describe('payment record display', () => {
  it('shows a cancelled payment with a refunded amount as refunded', () => {
    expect(paymentStatus({ status: 'paid', cancelAmount: 0 })).toBe('paid');
    expect(paymentStatus({ status: 'cancelled', cancelAmount: 100 })).toBe('refunded');
    expect(paymentStatus({ status: 'cancelled', cancelAmount: 0 })).toBe('cancelled');
    expect(paymentStatus({ status: 'reserved', cancelAmount: 0 })).toBe('reserved');
  });

  it('names kakaopay and naverpay by their gateway', () => {
    expect(payMethodKey({ payMethod: 'card', pgProvider: 'kakaopay' })).toBe('kakaopay');
    expect(payMethodKey({ payMethod: 'vbank', pgProvider: 'nice' })).toBe('vbank');
    expect(labelOf(ko.payments.payMethods, 'vbank')).toBe('가상계좌');
    expect(labelOf(ko.payments.payMethods, 'crypto')).toBe('crypto');
    expect(labelOf(ko.payments.payMethods, null)).toBe('-');
  });
});

describe('names people know', () => {
  it('names gateways, card brands and the upgrade credit as the quote did', () => {
    const names = { nice: 'NICE페이먼츠', kcp: 'NHN KCP', inicis: 'KG이니시스' };
    expect(pgProviderName(names, 'nice / kcp_billing')).toBe('NICE페이먼츠, NHN KCP');
    expect(pgProviderName(names, 'html5_inicis')).toBe('KG이니시스');
    expect(pgProviderName(names, 'unknownpg')).toBe('unknownpg');
    expect(pgProviderName(names, null)).toBeUndefined();
    expect(cardBrandName('MASTER')).toBe('Mastercard');
    expect(cardBrandName('신한카드')).toBe('신한카드');
    // 58,000 less 30% is 40,600; less a 2,339 credit is 38,261.
    const parts = recordDiscountParts({
      originalAmount: 58000,
      amount: 38261,
      discountFactors: [
        { type: 'base', factor: '0.3' },
        { type: 'remaining', factor: '0.0576' },
      ],
    });
    expect(parts).toEqual({ base: 0.3, remaining: 2339, coupon: 0 });
  });
});
