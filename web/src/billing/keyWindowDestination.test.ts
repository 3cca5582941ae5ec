import { describe, expect, it } from 'vitest';
import { bindPaths } from '../routing/paths';
import { keyWindowDestination } from './keyWindowDestination';
import type { Subscription } from '../api/models';

const paths = bindPaths({ lang: 'ko', search: '?code=WELCOME' });
// The fields these tests need, each checked against the server's model (new fields need no update here).
const subscription = {
  subscriptionId: 's-1',
  userLicenseId: 'u-1',
  status: 'active',
  isScheduled: true,
  price: 2900,
  currency: 'KRW',
  licenseName: '유니콘 프로 안드로이드 1개월 구독 (1대)',
  cardName: null,
  cardNumber: null,
  nextPaymentAt: '2026-12-22T10:00:00+09:00',
  paidUntil: '2026-12-22T10:00:00+09:00',
  resumeComplete: false,
  accountCreated: false,
} satisfies Partial<Subscription> as Subscription;

describe('after a billing-key window', () => {
  it('a new subscription goes to the confirm page with its result', () => {
    expect(keyWindowDestination({ kind: 'subscribed', subscription }, paths)).toEqual({
      to: '/ko/payment/confirm?code=WELCOME',
      state: { subscription },
    });
  });

  it('a failed subscription goes to the failure page of its licence with the code and the gateway message', () => {
    const intent = { kind: 'subscribe' as const, licenseId: 111, countryCode: 'KR' };
    expect(keyWindowDestination({ kind: 'failed', intent, error: { code: -303 }, gatewayMessage: 'card declined' }, paths)).toEqual({
      to: '/ko/payment/111?code=WELCOME&errorCode=-303',
      state: { gatewayMessage: 'card declined' },
    });
  });

  it('a resume or a change of card goes back to the licence, saying how it went', () => {
    const resume = { kind: 'resume' as const, userLicenseId: 'u-1' };
    expect(keyWindowDestination({ kind: 'updated', intent: resume, subscription }, paths)).toEqual({
      to: '/ko/license/u-1?code=WELCOME',
      state: { subscriptionNotice: 'resumed' },
    });
    const change = { kind: 'changeMethod' as const, userLicenseId: 'u-1' };
    expect(keyWindowDestination({ kind: 'updated', intent: change, subscription }, paths).state).toEqual({
      subscriptionNotice: 'changed',
    });
    expect(keyWindowDestination({ kind: 'failed', intent: change, error: { code: 'STOP' }, gatewayMessage: null }, paths)).toEqual({
      to: '/ko/license/u-1?code=WELCOME',
      state: { subscriptionError: { code: 'STOP' } },
    });
  });
});

describe('after an upgrade window', () => {
  it('shows the upgraded subscription on the confirm page, which says it was upgraded', () => {
    const paths = bindPaths({ lang: 'ko' });
    const upgraded = { price: 24360 } as Subscription;
    expect(keyWindowDestination({ kind: 'upgraded', subscription: upgraded }, paths)).toEqual({
      to: '/ko/payment/confirm',
      state: { subscription: upgraded, upgraded: true },
    });
  });
});
