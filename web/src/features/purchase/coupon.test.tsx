import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PurchasableLicence } from '../../api/models';
import { AppRoutes } from '../../app/routes';
import { ko } from '../../i18n/ko';
import { appStore } from '../../store';
import { wonSettings } from '../../test/paymentSettings';
import { renderAtAddress } from '../../test/renderAtAddress';

function licence(id: number, life: number, krw: number, coupon: boolean): PurchasableLicence {
  const base = life === 365 ? 0.3 : 0;
  const afterBase = Math.floor((krw * (10 - base * 10)) / 10);
  return {
    id,
    productCode: 'uncpa',
    life,
    maxDevicesCount: 1,
    prices: [{ countryCode: 'KR', currency: 'KRW', price: krw, requestPrice: coupon ? Math.floor((afterBase * 7) / 10) : afterBase }],
    localizations: [{ langCode: 'ko', name: `안드로이드 ${life}일`, description: '' }],
    discountFactors: [
      ...(base ? [{ type: 'base', factor: '0.3' }] : []),
      ...(coupon ? [{ type: 'coupon', factor: '0.3' }] : []),
    ],
  };
}

const plain = [licence(111, 30, 2900, false), licence(121, 365, 34800, false)];
// The test group discounts 30-day licences only.
const withCoupon = [licence(111, 30, 2900, true), licence(121, 365, 34800, false)];
const couponAnswer = { code: 'WELCOME', couponGroup: { id: 'g', name: '웰컴', factor: '0.3', constraintType: 'none' } };

function respond(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url);
}

function calledUrls(): string[] {
  return vi.mocked(fetch).mock.calls.map(([input]) => String(input));
}

beforeEach(() => {
  appStore.setState({ paymentSettings: wonSettings });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/purchasable-licenses/new')) return respond(url.searchParams.get('code') ? withCoupon : plain);
      if (url.pathname.endsWith('/payments/coupons/check')) return respond({ errorCode: -613 }, 409);
      if (url.pathname.endsWith('/payments/coupons')) return respond(couponAnswer);
      return new Promise<Response>(() => undefined);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the coupon box of the purchase page', () => {
  it('applies the code of the URL on arrival and prices the plans it discounts with it', async () => {
    const { location } = renderAt('/ko/purchase?code=welcome');
    const applied = await screen.findByTestId('applied-coupon');
    expect(applied.textContent).toContain('WELCOME');
    expect(await screen.findByText(ko.coupon.notForPlan)).toBeTruthy();
    expect(screen.getByRole('button', { name: '24,360원 결제하기' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /월간 구독/ }));
    expect(await screen.findByRole('button', { name: '2,030원 결제하기' })).toBeTruthy();
    expect(within(screen.getByRole('complementary')).getByText(/^\(30% 할인\)$/)).toBeTruthy();
    expect(calledUrls().some((url) => url.includes('/purchasable-licenses/new?code=WELCOME'))).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: ko.coupon.cancel }));
    expect(await screen.findByRole('button', { name: '2,900원 결제하기' })).toBeTruthy();
    expect(location()).toBe('/ko/purchase');
  });

  it('asks a guest for the email before checking a typed code', async () => {
    renderAt('/ko/purchase');
    const input = await screen.findByLabelText(ko.coupon.label);
    fireEvent.change(input, { target: { value: 'ONCE' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: ko.coupon.apply }));
    });
    expect(await screen.findByText(ko.coupon.errorCodes['-2'])).toBeTruthy();
    expect(calledUrls().some((url) => url.includes('/payments/coupons/check'))).toBe(false);
  });

  it("shows the server's refusal of a typed code", async () => {
    renderAt('/ko/purchase');
    fireEvent.change(await screen.findByLabelText(ko.purchase.emailLabel), { target: { value: 'guest@example.com' } });
    fireEvent.change(screen.getByLabelText(ko.coupon.label), { target: { value: 'ONCE' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: ko.coupon.apply }));
    });
    expect(await screen.findByText(ko.coupon.errorCodes['-613'])).toBeTruthy();
  });
});
