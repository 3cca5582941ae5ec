import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { signUpAndLogIn } from '../members';

/**
 * A renewal fails: the licence page offers paying now and changing the card (not "resume"); a card
 * that works pays the due period at once, the licence runs one period longer, and dunning stops.
 *
 * The stack's shared test clock moves a month ahead, so this runs in the `time-travel` project,
 * after every other test has finished (see playwright.config.ts).
 */

const API = '/web/unicornpro/v1';
const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const PASSWORD = 'unicorn2026';
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

async function fillCard(page: Page, cardNumber: string) {
  await page.getByLabel(ko.purchase.card.number).fill(cardNumber);
  await page.getByLabel(ko.purchase.card.month, { exact: true }).selectOption('12');
  await page.getByLabel(ko.purchase.card.year, { exact: true }).selectOption(String(new Date().getFullYear() + 3));
  await page.getByLabel(ko.purchase.card.password).fill('12');
  await page.getByLabel(ko.purchase.card.birth).fill('900101');
}

/**
 * Moves every process's clock forward, then runs the renewal pass at once rather than waiting for
 * beat's next tick (which may also run it: either way each attempt is charged once).
 */
async function timePassesAndBeatRuns(request: APIRequestContext, days: number): Promise<void> {
  const moved = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days, seconds: 60 } });
  expect(moved.ok()).toBe(true);
  const run = await request.post(`${API}/test-harness/renewals/run`, { headers: ADMIN });
  expect(run.ok()).toBe(true);
}

async function logIn(page: Page, email: string) {
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  expect(login.ok()).toBe(true);
}

test('a subscriber whose renewal failed changes the card and the due period is paid at once', async ({ page }, info) => {
  test.setTimeout(150_000);
  const email = `e2e-past-due-${info.project.name}-${Date.now()}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);

  // A monthly subscription, then a card that has no funds for the renewal.
  await page.goto('/ko/purchase');
  await page.getByRole('radio', { name: /월간 구독/ }).check();
  await page.getByLabel(ko.purchase.autoRenew).check();
  await page.getByLabel(ko.purchase.agreeAll).check();
  await fillCard(page, '4111111111111111');
  await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.subscribedHeading })).toBeVisible();
  const key = (await page.getByTestId('license-key').textContent())?.trim() ?? '';
  await page.goto('/ko/license');
  await page.getByRole('listitem').filter({ hasText: key }).getByRole('link').first().click();
  const detailUrl = page.url();
  const section = page.getByRole('region', { name: ko.subscriptions.heading });
  await section.getByRole('button', { name: ko.subscriptions.changeMethod }).click();
  await section.getByRole('button', { name: ko.subscriptions.addCard }).click();
  await fillCard(page, '4111111111110003');
  await section.getByRole('button', { name: ko.subscriptions.submitCard }).click();
  await expect(section.getByTestId('subscription-card')).toContainText('0003');
  const firstPeriod = await page.getByTestId('licence-period').textContent();

  // A month later the renewal is refused.
  await timePassesAndBeatRuns(page.request, 30);
  await logIn(page, email); // the session of a month ago has expired
  await page.goto(detailUrl);
  await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.pastDue);
  await expect(section.getByTestId('subscription-retry-at')).toHaveText(DATE_TIME);
  await expect(section.getByRole('button', { name: ko.subscriptions.payNow })).toBeVisible();
  await expect(section.getByRole('button', { name: ko.subscriptions.changeMethod })).toBeVisible();
  await expect(section.getByRole('button', { name: ko.subscriptions.resumePrevious })).toHaveCount(0);

  // Paying now with the same card is refused again, and says so.
  await section.getByRole('button', { name: ko.subscriptions.payNow }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(ko.subscriptions.errorTitles.pay);
  await alert.getByRole('button').first().click();
  await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.pastDue);

  // A card that works pays the due period at once and becomes the card.
  await section.getByRole('button', { name: ko.subscriptions.changeMethod }).click();
  await section.getByRole('button', { name: ko.subscriptions.addCard }).click();
  await fillCard(page, '4242424242424242');
  await section.getByRole('button', { name: ko.subscriptions.submitCard }).click();
  await expect(section.getByText(ko.subscriptions.paid)).toBeVisible();
  await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
  await expect(section.getByTestId('subscription-card')).toContainText('4242');
  await expect(section.getByRole('button', { name: ko.subscriptions.payNow })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('licence-period')).not.toHaveText(firstPeriod ?? '');

  // Dunning stopped: the retry date passes and nothing more is charged.
  await timePassesAndBeatRuns(page.request, 1);
  await logIn(page, email);
  await page.goto('/ko/purchase-history');
  const rows = page.getByRole('row').filter({ hasText: '2,900원' });
  await expect(rows).toHaveCount(4); // the first period, the two refusals, and the payment with the new card
  await expect(rows.filter({ hasText: ko.payments.statuses.failed })).toHaveCount(2);
});
