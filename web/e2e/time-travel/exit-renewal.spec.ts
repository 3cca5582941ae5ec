import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { EXIT_TEXT } from '../../src/features/subscriptions/exitText';
import { API, bearer, monthlySubscriber } from '../exit';

/**
 * A subscriber who takes the one retention offer is charged the coupon's price at the next renewal, and the plan's
 * own price at the one after (the history says so). The stack's shared clock moves two months ahead, so this runs in
 * the `time-travel` project, after every other test has finished (see playwright.config.ts).
 */

const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };

test('the offer taken in the exit dialog discounts the next renewal only', async ({ page }, info) => {
  test.setTimeout(150_000);
  const email = `e2e-exit-renewal-${info.project.name}-${Date.now()}@example.com`;
  const licence = await monthlySubscriber(page, email);
  await page.goto(`/ko/license/${licence}`);
  const section = page.getByRole('region', { name: ko.subscriptions.heading });
  await section.getByRole('button', { name: ko.subscriptions.cancel }).click();
  await page
    .getByRole('alertdialog', { name: EXIT_TEXT.ko.title })
    .getByRole('button', { name: EXIT_TEXT.ko.accept.replace('{percent}', '30') })
    .click();
  await expect(section.getByTestId('subscription-next-renewal-price')).toHaveText('2,030원');

  for (const _month of [1, 2]) {
    const moved = await page.request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days: 30, seconds: 60 } });
    expect(moved.ok()).toBe(true);
    const run = await page.request.post(`${API}/test-harness/renewals/run`, { headers: ADMIN });
    expect(run.ok()).toBe(true);
  }

  const history = await page.request.get(`${API}/payments/licenses`, { headers: await bearer(page, email) });
  const renewals = ((await history.json()) as { purchaseType: string; merchantUid: string; amount: number; status: string }[])
    .filter((record) => record.purchaseType === 'renewal' && record.status === 'paid')
    .sort((a, b) => a.merchantUid.localeCompare(b.merchantUid));
  expect(renewals.map((record) => record.amount)).toEqual([2030, 2900]);

  await page.goto(`/ko/license/${licence}`);
  await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
  await expect(section.getByTestId('subscription-next-renewal-price')).toHaveText('2,900원');
});
