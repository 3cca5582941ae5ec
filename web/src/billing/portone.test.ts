// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearPendingOrder,
  loadImpScript,
  payOutcome,
  readPendingOrder,
  redirectOutcome,
  savePendingOrder,
  type Imp,
} from './portone';

describe('payOutcome', () => {
  it('is a success with imp_uid and merchant_uid', () => {
    expect(payOutcome({ success: true, imp_uid: 'imp_1', merchant_uid: 'm_1' })).toEqual({
      kind: 'success',
      impUid: 'imp_1',
      merchantUid: 'm_1',
    });
    expect(payOutcome({ imp_success: 'true', imp_uid: 'imp_1', merchant_uid: 'm_1' }).kind).toBe('success');
  });

  it('counts a virtual account (status ready) as a success', () => {
    expect(payOutcome({ success: true, status: 'ready', imp_uid: 'imp_2', merchant_uid: 'm_2' }).kind).toBe('success');
  });

  it('is a failure when the success flag lacks an imp_uid', () => {
    expect(payOutcome({ success: true, imp_uid: null, merchant_uid: 'm_1' }).kind).toBe('failed');
  });

  it('tells a closed window (STOP) from a refusal', () => {
    expect(payOutcome({ success: false, error_code: 'USER_CANCEL', error_msg: 'user cancelled the payment', merchant_uid: 'm' })).toEqual({
      kind: 'cancelled',
      merchantUid: 'm',
      message: 'user cancelled the payment',
    });
    expect(payOutcome({ success: false, error_msg: '사용자가 결제를 취소하셨습니다' }).kind).toBe('cancelled');
    expect(payOutcome({ success: false, error_code: 'CARD_DECLINED', error_msg: 'card declined', merchant_uid: 'm' })).toEqual({
      kind: 'failed',
      merchantUid: 'm',
      code: 'CARD_DECLINED',
      message: 'card declined',
    });
  });

  it('prefers `success` over `imp_success` and treats nothing as a failure', () => {
    expect(payOutcome({ success: false, imp_success: true, imp_uid: 'i', merchant_uid: 'm' }).kind).toBe('failed');
    expect(payOutcome(undefined)).toEqual({ kind: 'failed', merchantUid: null, code: null, message: null });
  });
});

describe('redirectOutcome', () => {
  it('reads the query of the redirect return', () => {
    expect(redirectOutcome('?imp_uid=imp_9&merchant_uid=m_9&imp_success=true')).toEqual({
      kind: 'success',
      impUid: 'imp_9',
      merchantUid: 'm_9',
    });
    expect(
      redirectOutcome('?imp_uid=imp_9&merchant_uid=m_9&imp_success=false&error_code=USER_CANCEL&error_msg=closed'),
    ).toMatchObject({ kind: 'cancelled' });
    expect(redirectOutcome('?imp_uid=&merchant_uid=m_9&imp_success=false&error_msg=card%20declined')).toMatchObject({
      kind: 'failed',
      message: 'card declined',
    });
  });

  it('is null for a plain visit', () => {
    expect(redirectOutcome('')).toBeNull();
    expect(redirectOutcome('?code=ABC')).toBeNull();
  });
});

describe('pending order', () => {
  afterEach(() => clearPendingOrder());

  it('is kept for the redirect return and matched by merchantUid', () => {
    savePendingOrder({ merchantUid: 'm_1', licenseId: 121 });
    expect(readPendingOrder('m_1')).toEqual({ merchantUid: 'm_1', licenseId: 121 });
    expect(readPendingOrder(null)).toEqual({ merchantUid: 'm_1', licenseId: 121 });
    expect(readPendingOrder('m_2')).toBeNull();
    clearPendingOrder();
    expect(readPendingOrder('m_1')).toBeNull();
  });

  it('ignores what it cannot read', () => {
    sessionStorage.setItem('unicornpro.pendingOrder', '{broken');
    expect(readPendingOrder(null)).toBeNull();
  });
});

describe('loadImpScript', () => {
  it('adds the script once and resolves with IMP', async () => {
    const url = 'http://127.0.0.1:1/sandbox/iamport.js?once';
    const first = loadImpScript(url);
    const second = loadImpScript(url);
    expect(second).toBe(first);
    const scripts = document.head.querySelectorAll(`script[src="${url}"]`);
    expect(scripts).toHaveLength(1);
    const imp: Imp = { init: vi.fn(), request_pay: vi.fn() };
    window.IMP = imp;
    scripts[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(imp);
    delete window.IMP;
  });

  it('forgets a failed load so that the next call retries', async () => {
    const url = 'http://127.0.0.1:1/sandbox/iamport.js?fails';
    const first = loadImpScript(url);
    document.head.querySelector(`script[src="${url}"]`)!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow(/could not load/);
    expect(document.head.querySelector(`script[src="${url}"]`)).toBeNull();
    const second = loadImpScript(url);
    expect(second).not.toBe(first);
    second.catch(() => undefined);
  });
});
