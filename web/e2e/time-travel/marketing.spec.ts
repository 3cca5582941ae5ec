import { type APIRequestContext } from '@playwright/test';
import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { buyByCard } from '../purchases';
import { harnessMember, signInAgain } from '../staff';

/**
 * Marketing runs a promotion from the back office (issue 31): a marketing member makes a 20% code for annual plans
 * in KR only, starting tomorrow by the stack's test clock, with an event banner in three languages whose live
 * preview the store's own component draws. Before tomorrow the code is refused (-604: not started, docs/coupons.md)
 * and no banner shows; after, a visitor who came with the code sees the banner and buys at the coupon price, and the
 * group's page shows the redemption and what it gave away; the member disables the group and the next buyer is
 * refused (-603). It moves the shared clock, so it runs in the `time-travel` project, after the other tests.
 */

const API = '/web/unicornpro/v1';
const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const HOUR = 3_600_000;
const KST = 9 * HOUR;

async function serverNow(request: APIRequestContext): Promise<number> {
  const answer = await request.get(`${API}/test-harness/clock`, { headers: ADMIN });
  expect(answer.ok()).toBe(true);
  return new Date((await answer.json()).now).getTime();
}

/** Midnight (+09:00) after `now`, as the `datetime-local` value the back office's form takes, and as a time. */
function tomorrowKst(now: number): { input: string; at: number } {
  const day = Math.floor((now + KST) / (24 * HOUR)) + 1;
  const at = day * 24 * HOUR - KST;
  return { input: `${new Date(at + KST).toISOString().slice(0, 10)}T00:00`, at };
}

async function couponAnswer(request: APIRequestContext, code: string): Promise<number | undefined> {
  const answer = await request.get(`${API}/payments/coupons`, { params: { code, licenseId: 121 } });
  return (await answer.json()).errorCode;
}

test('a marketing member runs a 20% annual promotion from tomorrow with a banner, then disables it', async ({ browser, page, request }, info) => {
  test.skip(info.project.name !== 'time-travel');
  test.setTimeout(240_000);
  const stamp = Date.now();
  const code = `YEAR${stamp.toString(36).toUpperCase()}`;
  const group = `Annual 20% KR ${stamp}`;
  const texts = { ko: `연간 20% 할인 ${stamp}`, en: `20% off a year ${stamp}`, ja: `年間20%オフ ${stamp}` };

  const memberEmail = `marketing-${stamp}@example.com`;
  const { page: desk, context } = await harnessMember(browser, request, memberEmail, 'marketing');

  // The group: 20% off annual licences (365 days) in KR only, from tomorrow 00:00 +09:00.
  const now = await serverNow(request);
  const tomorrow = tomorrowKst(now);
  await desk.getByRole('link', { name: 'Coupon groups' }).click();
  const form = desk.getByRole('form', { name: 'Create' });
  await form.getByLabel('Name').fill(group);
  await form.getByLabel('Shared code').fill(code);
  await form.getByLabel('Countries').fill('KR');
  await form.getByLabel('Licence life in days').fill('365');
  await form.getByLabel('Starts (+09:00)').fill(tomorrow.input);
  await form.getByLabel('Discount').fill('0.2');
  await form.getByLabel('Reason').fill('winter campaign');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(desk.getByRole('heading', { level: 1, name: group })).toBeVisible();
  await expect(desk.getByText('public — 20% — Enabled')).toBeVisible();

  // The banner in three languages, tied to the group, previewed by the store's component at both widths.
  await desk.getByRole('link', { name: 'Banners and notices' }).click();
  const banner = desk.getByRole('form', { name: 'New banner or notice' });
  await banner.getByLabel('Starts (+09:00)').fill(tomorrow.input);
  await banner.getByLabel('Ends (+09:00)').fill(tomorrowKst(tomorrow.at + 20 * 24 * HOUR).input);
  await banner.getByLabel('Coupon group').selectOption({ label: group });
  for (const lang of ['ko', 'en', 'ja'] as const) {
    const fields = banner.getByRole('group', { name: lang });
    await fields.getByLabel('Text', { exact: true }).fill(texts[lang]);
    await fields.getByLabel('Background colour').fill('#2d1f6b');
    await fields.getByLabel('Link').fill(`/${lang}/purchase?code=${code}`);
  }
  for (const lang of ['ko', 'en', 'ja'] as const) {
    for (const width of ['Desktop', 'Phone']) {
      const frame = desk.frameLocator(`iframe[title="Preview ${lang} ${width}"]`);
      await expect(frame.getByRole('link', { name: texts[lang] })).toBeVisible();
    }
  }
  const label = ko.banners.eventLabel;
  await expect(desk.frameLocator('iframe[title="Preview ko Phone"]').getByRole('region', { name: label })).toBeVisible();
  await banner.getByLabel('Reason').fill('winter campaign');
  await banner.getByRole('button', { name: 'Post' }).click();
  await expect(desk.getByRole('table', { name: 'Banners and notices' }).getByText(texts.ko)).toBeVisible();

  // Before tomorrow: the code is not usable yet, and a visitor with the code sees no banner.
  expect(await couponAnswer(request, code)).toBe(-604);
  await page.clock.setFixedTime(await serverNow(request));
  await page.goto(`/ko/purchase?code=${code}`);
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  await expect(page.getByRole('region', { name: label })).toHaveCount(0);

  // Tomorrow, 01:00 +09:00.
  const moved = await request.post(`${API}/test-harness/clock/advance`, {
    headers: ADMIN,
    data: { seconds: Math.max(0, Math.ceil((tomorrow.at + HOUR - (await serverNow(request))) / 1000)) },
  });
  expect(moved.ok()).toBe(true);
  await page.clock.setFixedTime(await serverNow(request));
  await page.goto(`/ko/purchase?code=${code}`);
  await expect(page.getByRole('region', { name: label })).toContainText(texts.ko);
  await page.goto(`/en?code=${code}`);
  await expect(page.getByText(texts.en)).toBeVisible();

  // A visitor buys the annual licence with the code: 34,800 -> 24,360 (base 30%) -> 19,488 (coupon 20%).
  expect(await couponAnswer(request, code)).toBeUndefined();
  const buyer = `e2e-mkt-buyer-${stamp}@example.com`;
  const bought = await buyByCard(page.request, { email: buyer, code });
  expect(bought.amount).toBe(19488);

  // The group's page shows the redemption: who, which payment, what it gave away.
  await signInAgain(desk, memberEmail);
  await desk.getByRole('link', { name: 'Coupon groups' }).click();
  await desk.getByRole('link', { name: `Open ${group}` }).click();
  const redemptions = desk.getByRole('table', { name: 'Redemptions' });
  await expect(redemptions.getByRole('row').filter({ hasText: buyer })).toContainText(bought.merchantUid);
  await expect(desk.getByText('Given away: 4,872 KRW')).toBeVisible();

  // Disabled at once: the next buyer is refused.
  await desk.getByLabel('Reason').first().fill('budget spent');
  await desk.getByRole('button', { name: 'Disable now' }).click();
  await expect(desk.getByText('public — 20% — Disabled')).toBeVisible();
  expect(await couponAnswer(request, code)).toBe(-603);
  const refused = await page.request.post(`${API}/payments/licenses/new`, {
    data: { licenseId: 121, paymentMethod: 'creditCard', email: `e2e-mkt-late-${stamp}@example.com`, code },
  });
  expect((await refused.json()).errorCode).toBe(-603);

  await context.close();
});
