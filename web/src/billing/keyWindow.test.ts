// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Imp, ImpResponse, RequestPayParams } from './portone';
import type { BillingKeyWindow, Subscription } from '../api/models';
import {
  clearPendingKeyWindow,
  issueKeyInWindow,
  readPendingKeyWindow,
  runKeyWindow,
  savePendingKeyWindow,
  settleKeyWindow,
  type KeyIntentCalls,
  type KeyWindowDeps,
} from './keyWindow';

const window: BillingKeyWindow = {
  customerUid: 'cust-guest-0123456789abcdef01234567',
  merchantUid: 'issue-cust-guest-0123456789abcdef01234567',
  pg: 'kakaopay',
  payMethod: 'card',
  amount: 0,
  currency: 'KRW',
};

const request = {
  requestType: 'kakaopay' as const,
  intent: { kind: 'subscribe' as const, licenseId: 111, countryCode: 'KR', email: 'guest@example.com' },
  name: '유니콘 프로 안드로이드 1개월 구독 (1대)',
  buyerEmail: 'guest@example.com',
  redirectUrl: 'http://127.0.0.1:8765/ko/payment/confirm',
  token: null,
};

function deps(response: ImpResponse, overrides: Partial<KeyWindowDeps> = {}) {
  const order: string[] = [];
  const calls = {
    openKeyWindow: vi.fn(async () => window),
    portOne: vi.fn(async (): Promise<Imp> => ({ init: vi.fn(), request_pay: vi.fn() })),
    requestPay: vi.fn(async (_imp: Imp, _params: RequestPayParams) => {
      order.push('requestPay');
      return response;
    }),
    savePending: vi.fn(() => {
      order.push('savePending');
    }),
  };
  return { deps: { ...calls, ...overrides }, calls, order };
}

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
  cardNumber: '411111******1111',
  nextPaymentAt: '2026-12-22T10:00:00+09:00',
  paidUntil: '2026-12-22T10:00:00+09:00',
  resumeComplete: false,
  accountCreated: false,
} satisfies Partial<Subscription> as Subscription;

function intentCalls(overrides: Partial<KeyIntentCalls> = {}): KeyIntentCalls {
  return {
    subscribe: vi.fn(async () => ({ ...subscription, licenseKey: 'AAAA-BBBB-CCCC-DDDD', accountCreated: true })),
    resume: vi.fn(async () => ({ ...subscription, resumeComplete: true })),
    addKey: vi.fn(async (customerUid: string) => ({
      billingkeyId: 'k-2',
      customerUid,
      pg: 'naverpay',
      isDefault: false,
      cardName: null,
      cardNumber: null,
    })),
    changeMethod: vi.fn(async () => subscription),
    upgrade: vi.fn(async () => ({ ...subscription, price: 24360 })),
    ...overrides,
  };
}

describe('issueKeyInWindow', () => {
  it('opens the window with the customerUid and an amount of 0, remembering it first for a redirect return', async () => {
    const { deps: d, calls, order } = deps({ success: true, imp_uid: 'imp_1', merchant_uid: window.merchantUid });
    await expect(issueKeyInWindow(request, d)).resolves.toEqual({ kind: 'issued', customerUid: window.customerUid });
    expect(calls.openKeyWindow).toHaveBeenCalledWith('kakaopay', null);
    expect(calls.requestPay.mock.calls[0]?.[1]).toEqual({
      pg: 'kakaopay',
      pay_method: 'card',
      merchant_uid: window.merchantUid,
      customer_uid: window.customerUid,
      name: request.name,
      amount: 0,
      currency: 'KRW',
      buyer_email: 'guest@example.com',
      m_redirect_url: request.redirectUrl,
    });
    expect(calls.savePending).toHaveBeenCalledWith({
      merchantUid: window.merchantUid,
      customerUid: window.customerUid,
      intent: request.intent,
    });
    expect(order).toEqual(['savePending', 'requestPay']);
  });

  it('tells a closed window from a refused one', async () => {
    const closed = deps({ success: false, error_code: 'USER_CANCEL', error_msg: 'user cancelled the payment' });
    await expect(issueKeyInWindow(request, closed.deps)).resolves.toEqual({ kind: 'cancelled' });
    const refused = deps({ success: false, error_code: 'CARD_DECLINED', error_msg: 'card declined' });
    await expect(issueKeyInWindow(request, refused.deps)).resolves.toEqual({
      kind: 'failed',
      error: { code: -300 },
      gatewayMessage: 'card declined',
    });
  });

  it('opens no window when no customerUid can be had', async () => {
    const { deps: d, calls } = deps(
      { success: true },
      {
        openKeyWindow: vi.fn(async () => {
          throw new ApiError(-2, 400, { errorCode: -2 }, 'response');
        }),
      },
    );
    await expect(issueKeyInWindow(request, d)).resolves.toMatchObject({ kind: 'failed', error: { code: -2 } });
    expect(calls.requestPay).not.toHaveBeenCalled();
  });
});

describe('settleKeyWindow', () => {
  const issued = { kind: 'issued' as const, customerUid: window.customerUid };

  it('subscribes a guest with the new key and the address they gave', async () => {
    const calls = intentCalls();
    const settled = await settleKeyWindow(request.intent, issued, null, calls);
    expect(settled).toMatchObject({ kind: 'subscribed', subscription: { licenseKey: 'AAAA-BBBB-CCCC-DDDD' } });
    expect(calls.subscribe).toHaveBeenCalledWith(
      { licenseId: 111, countryCode: 'KR', customerUid: window.customerUid, email: 'guest@example.com' },
      null,
    );
  });

  it("carries the coupon code that discounts the first period", async () => {
    const calls = intentCalls();
    await settleKeyWindow({ ...request.intent, code: 'FIRSTMONTH' }, issued, 'token', calls);
    expect(calls.subscribe).toHaveBeenCalledWith(
      expect.objectContaining({ licenseId: 111, customerUid: window.customerUid, code: 'FIRSTMONTH' }),
      'token',
    );
  });

  it('resumes with the new key, or adds it to the wallet and makes renewals charge it', async () => {
    const calls = intentCalls();
    const resumed = await settleKeyWindow({ kind: 'resume', userLicenseId: 'u-1' }, issued, 'token', calls);
    expect(resumed).toMatchObject({ kind: 'updated', subscription: { resumeComplete: true } });
    expect(calls.resume).toHaveBeenCalledWith('u-1', window.customerUid, 'token');

    const changed = await settleKeyWindow({ kind: 'changeMethod', userLicenseId: 'u-1' }, issued, 'token', calls);
    expect(changed.kind).toBe('updated');
    expect(calls.addKey).toHaveBeenCalledWith(window.customerUid, 'token');
    expect(calls.changeMethod).toHaveBeenCalledWith('u-1', 'k-2', 'token');
  });

  it('upgrades a subscription with the new key, and a phone returning from the window still knows it was upgrading', async () => {
    const calls = intentCalls();
    const intent = { kind: 'upgrade' as const, userLicenseId: 'u-1', licenseId: 121 };
    const upgraded = await settleKeyWindow(intent, issued, 'token', calls);
    expect(upgraded).toMatchObject({ kind: 'upgraded', subscription: { price: 24360 } });
    expect(calls.upgrade).toHaveBeenCalledWith('u-1', 121, window.customerUid, 'token');

    const storage = new Map<string, string>();
    const session = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    } as unknown as Storage;
    savePendingKeyWindow({ merchantUid: 'issue-1', customerUid: window.customerUid, intent }, session);
    expect(readPendingKeyWindow('issue-1', session)?.intent).toEqual(intent);
  });

  it('says STOP for a closed window and the server code for a refusal, calling nothing more', async () => {
    const calls = intentCalls({
      subscribe: vi.fn(async () => {
        throw new ApiError(-402, 409, { errorCode: -402 }, 'response');
      }),
    });
    const closed = await settleKeyWindow(request.intent, { kind: 'cancelled' }, null, calls);
    expect(closed).toMatchObject({ kind: 'failed', error: { code: 'STOP' } });
    expect(calls.subscribe).not.toHaveBeenCalled();
    const refused = await settleKeyWindow(request.intent, issued, null, calls);
    expect(refused).toMatchObject({ kind: 'failed', intent: request.intent, error: { code: -402 } });
  });
});

describe('runKeyWindow', () => {
  it('opens the window, subscribes with its key, then forgets the pending window', async () => {
    const { deps: d, order } = deps({ success: true, imp_uid: 'imp_1', merchant_uid: window.merchantUid });
    const calls = intentCalls();
    const clearPending = vi.fn(() => {
      order.push('clearPending');
    });
    const settled = await runKeyWindow(request, { ...d, calls, clearPending });
    expect(settled.kind).toBe('subscribed');
    expect(order).toEqual(['savePending', 'requestPay', 'clearPending']);
  });

  it('forgets the pending window when the window was closed too, calling nothing on the server', async () => {
    const { deps: d } = deps({ success: false, error_code: 'USER_CANCEL' });
    const calls = intentCalls();
    const clearPending = vi.fn();
    await expect(runKeyWindow(request, { ...d, calls, clearPending })).resolves.toMatchObject({
      kind: 'failed',
      error: { code: 'STOP' },
    });
    expect(clearPending).toHaveBeenCalledOnce();
    expect(calls.subscribe).not.toHaveBeenCalled();
  });
});

describe('the pending window', () => {
  afterEach(() => clearPendingKeyWindow());

  it('is found by the merchantUid of the redirect and forgotten when cleared', () => {
    const pending = { merchantUid: window.merchantUid, customerUid: window.customerUid, intent: request.intent };
    savePendingKeyWindow(pending);
    expect(readPendingKeyWindow(window.merchantUid)).toEqual(pending);
    expect(readPendingKeyWindow('unc-20261123-000000000000')).toBeNull();
    expect(readPendingKeyWindow(null)).toBeNull();
    clearPendingKeyWindow();
    expect(readPendingKeyWindow(window.merchantUid)).toBeNull();
  });

  it('ignores what is not a pending window', () => {
    sessionStorage.setItem('unicornpro.pendingKeyWindow', JSON.stringify({ merchantUid: 'm', customerUid: 'c', intent: { kind: 'x' } }));
    expect(readPendingKeyWindow('m')).toBeNull();
    sessionStorage.setItem('unicornpro.pendingKeyWindow', '{not json');
    expect(readPendingKeyWindow('m')).toBeNull();
  });
});
