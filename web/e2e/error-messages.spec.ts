import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';

/**
 * Issue 29, finding 5: a failure names the right party. The connection down at "pay" asks to check the connection
 * (not "server error, contact the admin"); a card the card company declines says so in Korean and suggests another
 * card, without the gateway's English.
 */

function guestEmail(project: string): string {
  return `e2e-errors-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

async function fillOrder(page: Page, email: string) {
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(ko.purchase.agreeAll).check();
}

test('the connection down at pay asks to check the connection', async ({ page }, info) => {
  await fillOrder(page, guestEmail(info.project.name));
  await page.route('**/web/unicornpro/v1/payments/licenses/new', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: '24,360원 결제하기' }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(ko.errors.network);
  await expect(alert).not.toContainText(ko.errors.generic);
  await expect(alert).not.toContainText('관리자');
});

test('a declined card says the card company declined it and to try another card', async ({ page }, info) => {
  test.setTimeout(60_000);
  await fillOrder(page, guestEmail(info.project.name));
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: '24,360원 결제하기' }).click();
  await (await popup).getByRole('button', { name: 'Decline' }).click();
  await expect(page).toHaveURL(/\/ko\/payment\/121\?errorCode=-300$/);
  await expect(page.getByText(ko.payments.errorCodes['-300'])).toBeVisible();
  await expect(page.getByText(ko.payments.errorCodes['-300'])).toContainText('다른 카드');
  await expect(page.getByRole('main')).not.toContainText(/declined/i);
});
