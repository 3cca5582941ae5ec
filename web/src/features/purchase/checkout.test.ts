import { describe, expect, it } from 'vitest';
import type { ConfirmedPurchase } from '../../api/models';
import { bindPaths } from '../../routing/paths';
import { canAutoRenew, checkoutKind, methodChoices, methodWhenAutoRenewing, orderEmail, purchaseStep } from './checkout';

const won = {
  paymentMethods: ['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay', 'point'],
  billingKeyMethods: ['creditCard', 'kakaopay', 'naverpay'],
};
const dollars = { paymentMethods: ['creditCard'], billingKeyMethods: ['creditCard', 'kakaopay', 'naverpay'] };

describe('which flow pays', () => {
  it('pays once in the gateway window unless auto-renewing', () => {
    expect(checkoutKind({ subscribing: false, member: true, method: 'creditCard' })).toBe('oneTime');
    expect(checkoutKind({ subscribing: false, member: false, method: 'kakaopay' })).toBe('oneTime');
  });
  it('lets a member type the card, and everyone else register it in a window', () => {
    expect(checkoutKind({ subscribing: true, member: true, method: 'creditCard' })).toBe('cardSubscription');
    expect(checkoutKind({ subscribing: true, member: false, method: 'creditCard' })).toBe('windowSubscription');
    expect(checkoutKind({ subscribing: true, member: true, method: 'naverpay' })).toBe('windowSubscription');
    expect(checkoutKind({ subscribing: true, member: false, method: 'kakaopay' })).toBe('windowSubscription');
  });
  it('never subscribes with a method that issues no billing key', () => {
    expect(checkoutKind({ subscribing: true, member: true, method: 'virtualAccount' })).toBe('oneTime');
  });
});

describe('auto-renewal choices', () => {
  it('renews monthly and annual periods, not lifetime', () => {
    expect(canAutoRenew(30)).toBe(true);
    expect(canAutoRenew(365)).toBe(true);
    expect(canAutoRenew(36500)).toBe(false);
    expect(canAutoRenew(undefined)).toBe(false);
  });
  it('offers only the billing-key windows, keeping such a method and replacing others by the card', () => {
    expect(methodChoices(true, won)).toEqual(['creditCard', 'kakaopay', 'naverpay']);
    expect(methodChoices(false, won)).toContain('virtualAccount');
    expect(methodWhenAutoRenewing('naverpay')).toBe('naverpay');
    expect(methodWhenAutoRenewing('bankTransfer')).toBe('creditCard');
  });
  it('offers what the server offers for the currency: points in won, only the card in dollars', () => {
    expect(methodChoices(false, won)).toEqual(['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay', 'point']);
    expect(methodChoices(false, dollars)).toEqual(['creditCard']);
    expect(methodChoices(false, { ...won, paymentMethods: ['creditCard', 'crypto'] })).toEqual(['creditCard']);
  });
  it('sends the email of guests only', () => {
    expect(orderEmail(false, 'guest@example.com')).toEqual({ email: 'guest@example.com' });
    expect(orderEmail(true, 'typed@example.com')).toEqual({});
  });
});

describe('after a one-time purchase', () => {
  const paths = bindPaths({ lang: 'ko', search: '' });
  const confirmation = { licenseKey: 'K', email: 'a@b.c', state: 'paid' } as ConfirmedPurchase;

  it('goes to the confirm page with the confirmation', () => {
    expect(purchaseStep({ kind: 'confirmed', confirmation }, 121, paths)).toEqual({
      kind: 'navigate',
      to: '/ko/payment/confirm',
      state: { confirmation },
    });
  });
  it('goes to the failure page of the licence with the code and the gateway message', () => {
    expect(
      purchaseStep({ kind: 'paymentFailed', error: { code: -300 }, gatewayMessage: 'declined' }, 121, paths),
    ).toEqual({
      kind: 'navigate',
      to: '/ko/payment/121?errorCode=-300',
      state: { gatewayMessage: 'declined', network: false },
    });
  });
  it('stays to show a refused order, going home after -109', () => {
    expect(purchaseStep({ kind: 'orderFailed', error: { code: -302 } }, 121, paths)).toEqual({
      kind: 'alert',
      error: { code: -302 },
      goHome: false,
    });
    expect(purchaseStep({ kind: 'orderFailed', error: { code: -109 } }, 121, paths)).toMatchObject({ goHome: true });
  });
});
