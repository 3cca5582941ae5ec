import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { waitForMail } from './mail';

/**
 * Issue 29, finding 4: a guest who buys on /en gets the receipt in English, with links to the English pages, and a
 * lifetime licence's receipt says lifetime rather than a date a hundred years away.
 */

test.skip(({ isMobile }) => isMobile, 'one run is enough: the backend limits mails per client');

test('a guest buys a lifetime licence on /en and gets an English receipt that says lifetime', async ({ page }) => {
  test.setTimeout(90_000);
  const email = `e2e-en-receipt-${Date.now()}@example.com`;
  await page.goto('/en/purchase');
  await expect(page.getByRole('heading', { level: 1, name: en.purchase.heading })).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(en.purchase.periods.lifetime) }).check();
  await page.getByLabel(en.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(en.purchase.agreeAll).check();
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: /^Pay [\d,]+ KRW$/ }).click();
  await (await popup).getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/en\/payment\/confirm$/);

  const receipt = await waitForMail(email, { match: (mail) => mail.text.includes('userLicenseKey=') });
  expect(receipt.subject).toContain('Your payment is complete');
  expect(receipt.text).toContain('Valid: lifetime');
  expect(receipt.text).not.toMatch(/21\d\d-\d\d-\d\d/);
  expect(receipt.text).toMatch(/https?:\/\/\S+\/en\/register\?/);
  expect(receipt.text).not.toMatch(/[\uac00-\ud7a3]/); // no Korean
});
