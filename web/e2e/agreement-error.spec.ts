import { expect, test } from './clients';
import { en } from '../src/i18n/en';

/** Issue 29, finding 16: the English agreement error reads plainly (it was "Please select 'Agree after…' after checking…"). */

test('registering without the agreements says plainly what to do, in English', async ({ page }) => {
  await page.goto('/en/register');
  await expect(page.getByRole('heading', { level: 1, name: en.auth.register.heading })).toBeVisible();
  await page.getByLabel(en.auth.fields.email, { exact: true }).fill(`e2e-agree-${Date.now()}@example.com`);
  await page.getByLabel(en.auth.fields.password, { exact: true }).fill('unicorn2026');
  await page.getByLabel(en.auth.fields.passwordConfirm, { exact: true }).fill('unicorn2026');
  await page.getByRole('button', { name: en.auth.register.submit }).click();
  await expect(page.getByText(en.auth.validation.agreements).first()).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText("after checking the terms");
});
