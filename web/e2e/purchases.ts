/** A purchase made over the API, as a test's setup needs one: the order, the sandbox's card window, the confirm. */
import { expect, type APIRequestContext } from '@playwright/test';

const API = '/web/unicornpro/v1';
const SANDBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;

export interface Bought {
  licenseKey: string;
  userLicenseId: string;
  merchantUid: string;
  amount: number;
}

/**
 * Buys catalogue licence `licenseId` (default 121: an annual one-device Android licence) by card: as a guest with
 * `email`, or as the member of `accessToken` (whose address the window is given as `email`); with a coupon `code`
 * when given (the amount is then the coupon's price, in `amount`).
 */
export async function buyByCard(
  request: APIRequestContext,
  { email, accessToken, licenseId = 121, code }: { email: string; accessToken?: string; licenseId?: number; code?: string },
): Promise<Bought> {
  const headers = accessToken ? { Authorization: `Bearer ${accessToken}` } : undefined;
  const order = await request.post(`${API}/payments/licenses/new`, {
    headers,
    data: { licenseId, paymentMethod: 'creditCard', ...(accessToken ? {} : { email }), ...(code ? { code } : {}) },
  });
  expect(order.ok(), await order.text()).toBe(true);
  const placed = await order.json();
  const paid = await request.post(`${SANDBOX}/sandbox/checkout`, {
    data: {
      pg: placed.pg,
      pay_method: placed.payMethod,
      merchant_uid: placed.merchantUid,
      name: placed.name,
      amount: placed.amount,
      buyer_email: email,
      card_number: '4111111111111111',
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  const confirmed = await request.post(`${API}/payments/licenses/new/confirm`, {
    headers,
    data: { impUid: (await paid.json()).imp_uid, merchantUid: placed.merchantUid },
  });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
  return { ...(await confirmed.json()), merchantUid: placed.merchantUid, amount: placed.amount } as Bought;
}
