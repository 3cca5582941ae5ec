import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';

/** Issue 29, finding 11: the account menu's products lead to each product's own app, not all to /license. */

test.skip(({ isMobile }) => isMobile, 'one run is enough: the backend limits mails per client');

test("the account menu's products go to their own apps' downloads", async ({ page }) => {
  const settings = await page.request.get('/web/unicornpro/v1/integrations/settings');
  const { downloads } = (await settings.json()) as { downloads: Record<'android' | 'ios' | 'mac' | 'windows', string> };
  await signUpAndLogIn(page, `e2e-menu-${Date.now()}@example.com`, 'unicorn2026');
  await page.goto('/ko/purchase');
  await page.getByRole('button', { name: ko.header.myAccount }).click();
  await page.getByRole('button', { name: ko.menu.products }).click();
  const hrefs: string[] = [];
  for (const platform of ['android', 'ios', 'mac', 'windows'] as const) {
    const link = page.getByRole('link', { name: ko.menu.productNames[platform] });
    await expect(link).toHaveAttribute('href', downloads[platform]);
    await expect(link).toHaveAttribute('target', '_blank');
    hrefs.push((await link.getAttribute('href')) ?? '');
  }
  expect(new Set(hrefs).size).toBe(4);
  expect(hrefs.some((href) => href.includes('/license'))).toBe(false);
});
