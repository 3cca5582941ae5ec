import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { signUpAndLogIn } from '../members';
import { buyByCard } from '../purchases';

/**
 * The 30-day money-back guarantee (docs/money-back.md) on the licence page: a licence bought 10 days ago (the
 * stack's test clock) is offered back, the dialog says how much and that the licence stops, and it comes back at
 * once; one bought 40 days ago offers no button (the answer could only be no). It moves the shared clock, so it runs
 * in the `time-travel` project, after the other tests.
 */

const API = '/web/unicornpro/v1';
const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const PASSWORD = 'moneyback2026pw';

async function buy(page: Page, email: string): Promise<string> {
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  return (await buyByCard(page.request, { email, accessToken: (await login.json()).accessToken })).userLicenseId;
}

async function daysPass(request: APIRequestContext, days: number): Promise<void> {
  const moved = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days, seconds: 60 } });
  expect(moved.ok()).toBe(true);
}

test('a purchase 10 days old is refunded at once; one 40 days old is refused with the reason', async ({ page }, info) => {
  test.skip(info.project.name !== 'time-travel');
  test.setTimeout(150_000);
  const email = `e2e-money-back-${Date.now()}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);
  const old = await buy(page, email);
  await daysPass(page.request, 30);
  const recent = await buy(page, email);
  await daysPass(page.request, 10);
  const texts = ko.licences.moneyBack;

  await page.goto(`/ko/license/${recent}`);
  await expect(page.getByTestId('money-back-offer')).toContainText('24,360원');
  await page.getByRole('button', { name: texts.ask }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('24,360원');
  await dialog.getByRole('button', { name: texts.keep }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.refunded })).toHaveCount(0);
  await page.getByRole('button', { name: texts.ask }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: texts.confirmButton }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.refunded })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(ko.licences.states.revoked);

  await page.goto(`/ko/license/${old}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: texts.ask })).toHaveCount(0);
  const tooLate = await page.request.post(`${API}/payments/licenses/${await merchantUidOf(page, email, old)}/money-back`, {
    headers: await bearerOf(page, email),
  });
  expect((await tooLate.json()).errorCode).toBe(-340);
});

async function bearerOf(page: Page, email: string): Promise<Record<string, string>> {
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  return { Authorization: `Bearer ${(await login.json()).accessToken}` };
}

async function merchantUidOf(page: Page, email: string, licence: string): Promise<string> {
  const detail = await page.request.get(`${API}/licenses/mine/${licence}`, { headers: await bearerOf(page, email) });
  return (await detail.json()).payments[0].merchantUid;
}
