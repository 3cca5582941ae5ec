import { describe, expect, it } from 'vitest';
import { maskCardNumber, paymentMethodText, subscriptionDate } from './display';

describe('maskCardNumber', () => {
  it('keeps a number the server masked', () => {
    expect(maskCardNumber('4111-****-****-1111')).toBe('4111-****-****-1111');
  });
  it('masks an unmasked number to its last 4 digits', () => {
    expect(maskCardNumber('4242424242424242')).toBe('**** **** **** 4242');
  });
  it('is empty without a number', () => {
    expect(maskCardNumber(null)).toBe('');
    expect(maskCardNumber('  ')).toBe('');
  });
});

describe('paymentMethodText', () => {
  it('joins the card name and the masked number', () => {
    expect(paymentMethodText({ cardName: 'Visa', cardNumber: '4111111111111111' }, '-')).toBe('Visa **** **** **** 1111');
  });
  it('falls back without a card', () => {
    expect(paymentMethodText({ cardName: null, cardNumber: null }, '-')).toBe('-');
  });
});

describe('subscriptionDate', () => {
  it('shows the next payment of a renewing subscription', () => {
    expect(subscriptionDate({ status: 'active', nextPaymentAt: '2026-12-01T00:00:00Z', paidUntil: '2026-12-01T00:00:00Z' })).toEqual({
      kind: 'nextPayment',
      at: '2026-12-01T00:00:00Z',
    });
  });
  it('shows the retry of a failed payment while past due', () => {
    expect(subscriptionDate({ status: 'past_due', nextPaymentAt: '2026-12-02T00:00:00Z', paidUntil: '2026-12-01T00:00:00Z' })).toEqual({
      kind: 'retryAt',
      at: '2026-12-02T00:00:00Z',
    });
  });
  it('shows the end of the paid period when nothing will be charged', () => {
    for (const status of ['cancelled', 'ended'] as const) {
      expect(subscriptionDate({ status, nextPaymentAt: null, paidUntil: '2026-12-01T00:00:00Z' })).toEqual({
        kind: 'paidUntil',
        at: '2026-12-01T00:00:00Z',
      });
    }
  });
});
