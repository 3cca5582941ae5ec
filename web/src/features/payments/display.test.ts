import { describe, expect, it } from 'vitest';
import { catalogues } from '../../test/catalogues';
import { labelOf, payMethodKey, paymentStatus } from './display';

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
