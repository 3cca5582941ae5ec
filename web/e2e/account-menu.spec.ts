import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';

/** Issue 29, finding 11: the account menu's products lead to each product's own entry, not all to /license. */

test.skip(({ isMobile }) => isMobile, 'one run is enough: the backend limits mails per client');

test("the account menu's products go to their own entries on the home page", async ({ page }) => {
  await signUpAndLogIn(page, `e2e-menu-${Date.now()}@example.com`, 'unicorn2026');
  await page.goto('/ko/purchase');
  await page.getByRole('button', { name: ko.header.myAccount }).click();
  await page.getByRole('button', { name: ko.menu.products }).click();
  const targets: [string, string][] = [
    [ko.menu.productNames.mac, 'uncem'],
    [ko.menu.productNames.android, 'uncea'],
  ];
  for (const [name, code] of targets) {
    if (!(await page.getByRole('link', { name }).isVisible())) {
      await page.getByRole('button', { name: ko.header.myAccount }).click();
      await page.getByRole('button', { name: ko.menu.products }).click();
    }
    await page.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/ko#product-${code}$`));
    await expect(page.locator(`#product-${code}`)).toBeInViewport();
  }
});
