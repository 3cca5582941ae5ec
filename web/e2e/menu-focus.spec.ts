import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';

/**
 * Issue 29, finding 16: with a phone menu open, Tab goes round the menu (and the button that opened it), never into
 * the page behind the dimmer; Esc closes the menu and gives focus back to that button. Seen in Korean on a phone.
 */

/** Tabs forwards and backwards through more stops than the menu has, checking each lands inside `inside`. */
async function tabStaysInside(page: Page, inside: Locator[]) {
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    const within = await Promise.all(
      inside.map((area) => area.evaluate((node) => node === document.activeElement || node.contains(document.activeElement))),
    );
    expect(within.some(Boolean), `focus after ${key} stays in the open menu`).toBe(true);
  }
}

test('the phone navigation menu keeps Tab inside and Esc gives focus back to its button', async ({ page, isMobile }) => {
  test.skip(!isMobile, 'the navigation is a menu behind a button on phones only');
  await page.goto('/ko');
  const toggle = page.getByRole('button', { name: ko.header.openMenu });
  await toggle.click();
  const close = page.getByRole('button', { name: ko.header.closeMenu });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  const navigation = page.getByRole('navigation', { name: ko.header.mainNavigation });
  await tabStaysInside(page, [navigation, close]);
  await page.keyboard.press('Escape');
  const reopen = page.getByRole('button', { name: ko.header.openMenu });
  await expect(reopen).toHaveAttribute('aria-expanded', 'false');
  await expect(reopen).toBeFocused();
});

test('the account menu keeps Tab inside and Esc gives focus back to its button', async ({ page }, info) => {
  await signUpAndLogIn(page, `e2e-menu-focus-${info.project.name}-${Date.now()}@example.com`, 'unicorn2026');
  await page.goto('/ko/purchase');
  const button = page.getByRole('button', { name: ko.header.myAccount });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('region', { name: ko.menu.label });
  await tabStaysInside(page, [menu, button]);
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
});
