/**
 * The content security policy in a real browser: the pages are served with it, nothing they do
 * breaks it (no inline script, no eval, not even zod's probe for it), and the login form's
 * validation and its cookie-riding call work under it.
 */
import { expect, test } from './clients';
import { en } from '../src/i18n/en';

test('pages keep to the content security policy while a form validates and submits', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const home = await page.goto('/en/login');
  const policy = home?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { violations: string[] }).violations ??= [];
      (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: en.auth.login.heading })).toBeVisible({ timeout: 15_000 });

  // The form's schema parses on submit: a bad address first, then a login the server refuses.
  await page.getByLabel(en.auth.fields.email, { exact: true }).fill('not-an-address');
  await page.getByLabel(en.auth.fields.password, { exact: true }).fill('wrongpass1');
  await page.getByRole('button', { name: en.auth.login.submit }).click();
  await expect(page.getByText(en.auth.validation.email)).toBeVisible();
  await page.getByLabel(en.auth.fields.email, { exact: true }).fill('nobody-here@example.com');
  await page.getByRole('button', { name: en.auth.login.submit }).click();
  await expect(page.getByText(en.auth.login.mismatch)).toBeVisible();

  const reported = await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? []);
  expect([...reported, ...violations]).toEqual([]);
});
