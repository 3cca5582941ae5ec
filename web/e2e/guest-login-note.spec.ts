import { expect, test } from './clients';
import { format } from '../src/i18n/catalogues';
import { ko } from '../src/i18n/ko';

/**
 * Issue 29, finding 9: a guest's "go to licence management" after paying lands on login with a word about setting
 * the password from the mail first, the address filled in. Seen in Korean.
 */

test.skip(({ isMobile }) => isMobile, 'one run is enough: the page reads the same on a phone, and mails are limited per client');

test("a guest's way to licence management says to set the password from the mail", async ({ page }) => {
  const email = `e2e-guest-note-${Date.now()}@example.com`;
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(ko.purchase.agreeAll).check();
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: '24,360원 결제하기' }).click();
  await (await popup).getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);

  await page.getByRole('link', { name: ko.payments.confirm.goLicences }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.auth.login.heading })).toBeVisible();
  await expect(page.getByTestId('set-password-note')).toHaveText(format(ko.auth.login.setPasswordNote, { email }));
  await expect(page.getByLabel(ko.auth.fields.email, { exact: true })).toHaveValue(email);

  // Coming to login any other way shows no such note.
  await page.goto('/ko/register');
  await page.getByRole('link', { name: ko.auth.register.login, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.auth.login.heading })).toBeVisible();
  await expect(page.getByTestId('set-password-note')).toHaveCount(0);
});
