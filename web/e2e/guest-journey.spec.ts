import { expect, test } from '@playwright/test';
import { ko } from '../src/i18n/ko';
import { waitForMail } from './mail';

/**
 * The guest's whole journey: buy without an account, follow the receipt's link to register with the
 * same address, confirm it by mail, log in, find the licence, rename the device an app activated, and
 * see the payment in the purchase history.
 */

const API = '/web/unicornpro/v1';
const PASSWORD = 'guest2026pw';
const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;
const LICENCE = '유니콘 프로 안드로이드 1년 구독 (1대)';

test.skip(({ isMobile }) => isMobile, 'one run is enough: the backend limits mails per client');

test('a guest buys an annual Android Pro licence, registers from the receipt, and manages it', async ({ page }) => {
  test.setTimeout(180_000);
  const email = `e2e-guest-journey-${Date.now()}@example.com`;

  // Buy as a guest through the sandbox's payment window.
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible({ timeout: 15_000 });
  await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(ko.purchase.agreeAll).check();
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: '24,360원 결제하기' }).click();
  await (await popup).getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
  const key = ((await page.getByTestId('license-key').textContent()) ?? '').trim();
  expect(key).toMatch(KEY_SHAPE);

  // The receipt carries the key and a link to register with the same address.
  const receipt = await waitForMail(email, { match: (mail) => mail.text.includes('userLicenseKey=') });
  expect(receipt.text).toContain(key);
  const registerLink = /https?:\/\/\S+\/register\?\S+/.exec(receipt.text)?.[0] ?? '';
  await page.goto(registerLink);
  await expect(page.getByLabel(ko.auth.fields.email, { exact: true })).toHaveValue(email);
  await page.getByLabel(ko.auth.fields.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(ko.auth.fields.passwordConfirm, { exact: true }).fill(PASSWORD);
  await page.getByLabel(ko.auth.register.agreeAll).check();
  await page.getByRole('button', { name: ko.auth.register.submit }).click();
  await expect(page).toHaveURL(/\/ko\/email-auth\?email=/);

  // Confirm the address from the mail, then log in.
  const confirmation = await waitForMail(email, { match: (mail) => mail.text.includes('/accounts/confirm?t=') });
  const confirmLink = /https?:\/\/\S+\/accounts\/confirm\?t=\S+/.exec(confirmation.text)?.[0] ?? '';
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { level: 1, name: ko.auth.registerConfirm.heading })).toBeVisible();
  await page.goto('/ko/login');
  await page.getByLabel(ko.auth.fields.email, { exact: true }).fill(email);
  await page.getByLabel(ko.auth.fields.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: ko.auth.login.submit }).click();
  await expect(page).not.toHaveURL(/\/ko\/login/);

  // The licence is in the list.
  await page.goto('/ko/license');
  const item = page.getByRole('listitem').filter({ hasText: key });
  await expect(item.getByRole('link', { name: LICENCE })).toBeVisible();

  // An app activates a device; the customer renames it on the detail page.
  const activated = await page.request.post(`${API}/licenses/activate`, {
    data: { licenseKey: key, deviceId: `guest-${Date.now()}`, deviceName: 'Galaxy Tab', platform: 'android' },
  });
  expect(activated.ok()).toBe(true);
  await item.getByRole('link', { name: LICENCE }).click();
  await page.getByRole('button', { name: `${ko.licences.rename} Galaxy Tab` }).click();
  await page.getByLabel(ko.licences.renameLabel).fill('Living-room tablet');
  await page.getByRole('button', { name: ko.licences.save }).click();
  await expect(page.locator('.licence-device__name', { hasText: /^Living-room tablet$/ })).toBeVisible();

  // The payment is in the purchase history.
  await page.goto('/ko/purchase-history');
  const row = page.getByRole('row').filter({ hasText: LICENCE });
  await expect(row.getByText('24,360원')).toBeVisible();
  await expect(row.getByText(ko.payments.statuses.paid)).toBeVisible();
});
