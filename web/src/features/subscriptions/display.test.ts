import { describe, expect, it } from 'vitest';
import { maskCardNumber, paymentMethodText, subscriptionView } from './display';

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

describe('subscriptionView', () => {
  it('tells renewing, cancelled and ended subscriptions apart', () => {
    expect(subscriptionView({ status: 'active', isScheduled: true })).toBe('renewing');
    expect(subscriptionView({ status: 'cancelled', isScheduled: false })).toBe('cancelled');
    expect(subscriptionView({ status: 'active', isScheduled: false })).toBe('cancelled');
    expect(subscriptionView({ status: 'past_due', isScheduled: true })).toBe('cancelled');
    expect(subscriptionView({ status: 'ended', isScheduled: false })).toBe('ended');
  });
});
