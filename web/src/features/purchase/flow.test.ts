import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { Imp, ImpResponse, RequestPayParams } from '../../billing/portone';
import type { ConfirmedPurchase, PaymentRequest } from '../../api/models';
import { confirmOnce, runPurchase, type PurchaseDeps } from './flow';

let serial = 0;

function deps(response: ImpResponse | ((params: RequestPayParams) => ImpResponse), overrides: Partial<PurchaseDeps> = {}) {
  serial += 1;
  const init: PaymentRequest = {
    merchantUid: `m_${serial}`,
    amount: 24360,
    currency: 'KRW',
    name: '유니콘 프로 안드로이드 1년 구독 (1대)',
    pg: 'nice',
    payMethod: 'card',
    buyerEmail: 'guest@example.com',
  };
  const confirmation: ConfirmedPurchase = {
    userLicenseId: 'u-1',
    licenseKey: 'AAAA-BBBB-CCCC-DDDD',
    state: 'paid',
    email: 'guest@example.com',
    accountCreated: true,
  };
  const imp: Imp = { init: vi.fn(), request_pay: vi.fn() };
  const calls = {
    postPurchase: vi.fn(async (_body: unknown, _token: string | null) => init),
    postConfirm: vi.fn(async (_body: unknown, _lang: string, _token: string | null) => confirmation),
    requestPay: vi.fn(async (_imp: Imp, params: RequestPayParams) =>
      typeof response === 'function' ? response(params) : response,
    ),
    savePending: vi.fn(),
  };
  const all: PurchaseDeps = {
    getToken: async () => null,
    portOne: async () => imp,
    ...calls,
    ...overrides,
  };
  return { deps: all, calls, init, confirmation };
}

const order = {
  request: { licenseId: 121, countryCode: 'KR', paymentMethod: 'creditCard' as const, email: 'guest@example.com' },
  lang: 'ko' as const,
  redirectUrl: 'http://127.0.0.1:8765/ko/payment/confirm',
};

describe('runPurchase', () => {
  it('confirms an order with nothing to pay at once, never opening the window', async () => {
    const { deps: d, calls, init, confirmation } = deps({ success: false });
    const free: PaymentRequest = { ...init, amount: 0, pg: 'none', payMethod: 'none', impUid: `none-${init.merchantUid}` };
    calls.postPurchase.mockResolvedValue(free);
    const result = await runPurchase({ ...order, request: { ...order.request, code: 'FREEMONTH' } }, d);
    expect(result).toEqual({ kind: 'confirmed', confirmation });
    expect(calls.requestPay).not.toHaveBeenCalled();
    expect(calls.postConfirm).toHaveBeenCalledWith({ impUid: free.impUid, merchantUid: free.merchantUid }, 'ko', null);
  });

  it('orders, pays with the order and confirms', async () => {
    const { deps: d, calls, init, confirmation } = deps((params) => ({
      success: true,
      imp_uid: 'imp_1',
      merchant_uid: params.merchant_uid,
    }));
    const result = await runPurchase(order, d);
    expect(result).toEqual({ kind: 'confirmed', confirmation });
    expect(calls.postPurchase).toHaveBeenCalledWith(order.request, null);
    expect(calls.savePending).toHaveBeenCalledWith({ merchantUid: init.merchantUid, licenseId: 121 });
    expect(calls.requestPay.mock.calls[0]![1]).toEqual({
      pg: 'nice',
      pay_method: 'card',
      merchant_uid: init.merchantUid,
      name: init.name,
      amount: 24360,
      buyer_email: 'guest@example.com',
      currency: 'KRW',
      m_redirect_url: order.redirectUrl,
    });
    expect(calls.postConfirm).toHaveBeenCalledWith({ impUid: 'imp_1', merchantUid: init.merchantUid }, 'ko', null);
  });

  it('passes the bearer token of a logged-in buyer to order and confirm', async () => {
    const { deps: d, calls } = deps((params) => ({ success: true, imp_uid: 'i', merchant_uid: params.merchant_uid }), {
      getToken: async () => 'token-1',
    });
    await runPurchase({ ...order, request: { ...order.request, email: undefined } }, d);
    expect(calls.postPurchase.mock.calls[0]![1]).toBe('token-1');
    expect(calls.postConfirm.mock.calls[0]![2]).toBe('token-1');
  });

  it('stops with STOP when the buyer closes the window, without confirming', async () => {
    const { deps: d, calls } = deps({ success: false, error_code: 'USER_CANCEL', error_msg: 'closed' });
    expect(await runPurchase(order, d)).toEqual({ kind: 'paymentFailed', error: { code: 'STOP' }, gatewayMessage: null });
    expect(calls.postConfirm).not.toHaveBeenCalled();
  });

  it('reports a refusal of the gateway as -300 with its message', async () => {
    const { deps: d } = deps({ success: false, imp_uid: 'imp_x', error_code: 'CARD_DECLINED', error_msg: 'card declined' });
    expect(await runPurchase(order, d)).toEqual({
      kind: 'paymentFailed',
      error: { code: -300 },
      gatewayMessage: 'card declined',
    });
  });

  it('reports a refused confirmation with the server code', async () => {
    const { deps: d } = deps((params) => ({ success: true, imp_uid: 'i', merchant_uid: params.merchant_uid }), {
      postConfirm: async () => {
        throw new ApiError(-301, 400, { errorCode: -301 }, 'response');
      },
    });
    expect(await runPurchase(order, d)).toMatchObject({ kind: 'paymentFailed', error: { code: -301 } });
  });

  it('stays on the page when the order is refused, without opening the window', async () => {
    const { deps: d, calls } = deps({ success: true }, {
      postPurchase: async () => {
        throw new ApiError(-109, 404, { errorCode: -109 }, 'response');
      },
    });
    expect(await runPurchase(order, d)).toMatchObject({ kind: 'orderFailed', error: { code: -109 } });
    expect(calls.requestPay).not.toHaveBeenCalled();
  });

  it('stays on the page when the payment script cannot load', async () => {
    const { deps: d, calls } = deps({ success: true }, {
      portOne: async () => {
        throw new Error('could not load');
      },
    });
    expect(await runPurchase(order, d)).toMatchObject({ kind: 'orderFailed', error: { code: -1002 } });
    expect(calls.requestPay).not.toHaveBeenCalled();
  });
});

describe('confirmOnce', () => {
  it('shares a running confirmation and forgets a failed one', async () => {
    const run = vi.fn(async () => ({ licenseKey: 'K' }) as ConfirmedPurchase);
    const [a, b] = [confirmOnce('once-1', run), confirmOnce('once-1', run)];
    expect(a).toBe(b);
    await a;
    expect(run).toHaveBeenCalledTimes(1);

    const failing = vi.fn(async (): Promise<ConfirmedPurchase> => {
      throw new Error('no');
    });
    await expect(confirmOnce('once-2', failing)).rejects.toThrow('no');
    await expect(confirmOnce('once-2', failing)).rejects.toThrow('no');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
