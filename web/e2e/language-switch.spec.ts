import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';

/** Issue 29, finding 12: visitors switch the language from any page (the footer), and the choice is remembered. */

test('the footer switches the page to another language and remembers it', async ({ page, context }) => {
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  const switcher = page.getByRole('navigation', { name: ko.footer.languageLabel });
  await switcher.getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/en\/purchase$/);
  await expect(page.getByRole('heading', { level: 1, name: en.purchase.heading })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect((await context.cookies()).find((cookie) => cookie.name === 'langCode')?.value).toBe('en');

  await page.getByRole('navigation', { name: en.footer.languageLabel }).getByRole('link', { name: '日本語' }).click();
  await expect(page).toHaveURL(/\/ja\/purchase$/);
  await expect(page.getByRole('heading', { level: 1, name: ja.purchase.heading })).toBeVisible();
  await page.goto('/purchase');
  await expect(page).toHaveURL(/\/ja\/purchase$/);
});
