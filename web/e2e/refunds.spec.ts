import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';
import { harnessMember } from './staff';

/**
 * Refunds where two parts meet (docs/payments.md): a customer's licence is refunded 1,000원 in PortOne's console;
 * support refunds the rest from the back office, which, above the approval limit in all, waits for a second member
 * (support cannot approve it; finance does); the refund made in the console is recorded first, as the gateway's.
 * Support refunds part of a second licence, shortening it, after seeing the new end. The customer's purchase
 * history then says refunded and partly refunded, with the amounts and dates, in ko, en and ja, at desktop and phone
 * widths. (The staff's part runs once, in the desktop project.)
 */

const API = '/web/unicornpro/v1';
const SANDBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;
const PASSWORD = 'refunds2026pw';

/** Someone refunds part of a payment in PortOne's console (the sandbox's REST API, with the store's keys). */
async function refundInTheConsole(request: APIRequestContext, merchantUid: string, amount: number): Promise<void> {
  const token = await request.post(`${SANDBOX}/users/getToken`, {
    data: { imp_key: 'sandbox-imp-key', imp_secret: 'sandbox-imp-secret' },
  });
  const headers = { Authorization: `Bearer ${(await token.json()).response.access_token}` };
  const found = await request.get(`${SANDBOX}/payments/find/${merchantUid}`, { headers });
  const payment = (await found.json()).response;
  const cancelled = await request.post(`${SANDBOX}/payments/cancel`, {
    headers,
    data: { imp_uid: payment.imp_uid, amount, checksum: payment.amount - payment.cancel_amount, reason: 'console' },
  });
  expect((await cancelled.json()).code).toBe(0);
}

async function openCustomer(desk: Page, email: string): Promise<void> {
  await desk.getByRole('link', { name: 'Customers' }).click();
  await desk.getByPlaceholder(/licence key/).fill(email);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: `Open ${email}` }).click();
}

test('a licence refunded in part in the console is refunded for the rest from the back office', async ({ browser, page, request }, info) => {
  test.skip(info.project.name !== 'desktop-chromium', 'one run: the customer looks at both widths');
  test.setTimeout(180_000);
  const stamp = `${Date.now()}-${info.project.name}`;
  const customer = `e2e-refunds-${stamp}@example.com`;
  await signUpAndLogIn(page, customer, PASSWORD);
  const login = await page.request.post(`${API}/auth/login`, { data: { email: customer, pw: PASSWORD } });
  const accessToken = (await login.json()).accessToken;
  const first = await buyByCard(page.request, { email: customer, accessToken });
  const second = await buyByCard(page.request, { email: customer, accessToken });
  await refundInTheConsole(request, first.merchantUid, 1000);

  const support = await harnessMember(browser, request, `refunds-support-${stamp}@example.com`, 'support');
  const finance = await harnessMember(browser, request, `refunds-finance-${stamp}@example.com`, 'finance');
  const desk = support.page;
  await openCustomer(desk, customer);

  // The rest of the first: the preview counts the console's refund; above the limit in all, it waits.
  await desk.getByLabel('Reason').first().fill('charged twice by mistake');
  await expect(desk.getByTestId(`refund-preview-${first.merchantUid}`)).toContainText('Refund 23360 KRW');
  await expect(desk.getByTestId(`refund-preview-${first.merchantUid}`)).toContainText('the licence stops');
  await desk.getByRole('button', { name: `Refund ${first.merchantUid}`, exact: true }).click();
  await expect(desk.getByText('Waiting for approval')).toBeVisible();
  await desk.getByRole('link', { name: 'Refund requests' }).click();
  await desk.getByLabel('Reason').fill('my own');
  await desk.getByRole('button', { name: `Approve ${first.merchantUid}` }).click();
  await expect(desk.getByRole('alert')).toBeVisible();

  await finance.page.getByRole('link', { name: 'Refund requests' }).click();
  await finance.page.getByLabel('Reason').fill('checked with the bank');
  await finance.page.getByRole('button', { name: `Approve ${first.merchantUid}` }).click();
  await expect(finance.page.getByRole('button', { name: `Approve ${first.merchantUid}` })).toHaveCount(0);

  // Part of the second, shortening the licence to what is left paid for.
  await openCustomer(desk, customer);
  await desk.getByLabel('Reason').first().fill('an outage week');
  await desk.getByLabel(`Amount ${second.merchantUid}`).fill('5000');
  await desk.getByRole('radio', { name: /Shorten it to what is left paid for/ }).check();
  await expect(desk.getByTestId(`refund-preview-${second.merchantUid}`)).toContainText('the licence will end');
  await desk.getByRole('button', { name: `Refund ${second.merchantUid}`, exact: true }).click();
  await expect(desk.getByText('Refunded: 5000')).toBeVisible();
  for (const member of [support, finance]) await member.context.close();

  // The customer's purchase history says what refunds left, in each language, on a desktop and on a phone.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [lang, words] of [['ko', ko], ['en', en], ['ja', ja]] as const) {
      await page.goto(`/${lang}/purchase-history`);
      const statuses = page.getByTestId('history-status');
      const startsWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      await expect(statuses.filter({ hasText: startsWith(words.payments.statuses.refunded) })).toContainText('24,360');
      await expect(statuses.filter({ hasText: startsWith(words.payments.statuses.partlyRefunded) })).toContainText('5,000');
    }
  }
  await page.goto(`/ko/purchase-history/${first.merchantUid}`);
  await expect(page.getByTestId('payment-status')).toHaveText(ko.payments.statuses.refunded);
  await expect(page.getByTestId('payment-refund').first()).toContainText(ko.payments.history.refundAtGateway);
  await expect(page.getByTestId('payment-refund')).toHaveCount(2);
});
