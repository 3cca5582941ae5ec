import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { format } from '../../src/i18n/catalogues';
import { signUpAndLogIn } from '../members';
import { buyByCard } from '../purchases';

/**
 * The 30-day money-back guarantee (docs/money-back.md) on the licence page: a licence bought 10 days ago (the
 * stack's test clock) comes back at once; one bought 40 days ago is refused with the reason. It moves the shared
 * clock, so it runs in the `time-travel` project, after the other tests.
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
  await page.getByRole('button', { name: texts.ask }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.refunded })).toBeVisible();

  await page.goto(`/ko/license/${old}`);
  await page.getByRole('button', { name: texts.ask }).click();
  const refused = format(texts.refused, { reason: texts.reasons['too-late'] });
  await expect(page.getByRole('status').filter({ hasText: refused })).toBeVisible();
});
