import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './clients';
import { jaShell } from '../src/i18n/shell/ja';
import { koShell } from '../src/i18n/shell/ko';

/**
 * Issue 42 (docs/legal.md): the Japanese disclosure page and the final confirmation's six items at the project's
 * width (375 px on the phone project, 1280 on the desktop one), and the Korean footer's link to the Fair Trade
 * Commission's page of the business (the development samples' number, 000-00-00000).
 */

test('the 特定商取引法に基づく表記 page is linked from the Japanese footer and states every item', async ({ page, isMobile }) => {
  await page.goto('/ja/purchase');
  await page.getByRole('contentinfo').getByRole('link', { name: jaShell.footer.links.tokushoho }).click();
  await expect(page).toHaveURL(/\/ja\/legal\/tokushoho$/);
  await expect(page.getByRole('heading', { level: 1, name: '特定商取引法に基づく表記' })).toBeVisible();
  const table = page.locator('.tokushoho__table');
  await expect(table.locator('dt')).toHaveCount(13);
  await expect(table.locator('[data-item="seller"] dd')).toHaveText('ユニコーン株式会社(サンプル)');
  await expect(table.locator('[data-item="prices"] li').first()).toContainText('(税込)');
  await expect(table.locator('[data-item="subscription"] li').first()).toContainText('自動更新');
  // Nothing runs off the side of a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  if (isMobile) return; // the page's markup is the same at both widths: axe once
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
});

test('the final confirmation sits right before the pay button with its six items, 税込', async ({ page }) => {
  await page.goto('/ja/purchase');
  const confirmation = page.getByTestId('final-confirmation');
  await expect(confirmation.locator('[data-item]')).toHaveCount(6);
  await expect(confirmation.locator('[data-item="price"] dd')).toContainText('(税込)');
  await page.getByRole('checkbox', { name: '自動決済で購読する' }).check();
  await expect(confirmation.locator('[data-item="renewal"] dd')).toContainText(/毎年.*\(税込\)で自動更新/);
  const next = await confirmation.evaluate((block) => block.nextElementSibling?.className ?? '');
  expect(next).toContain('purchase__pay');
  await confirmation.scrollIntoViewIfNeeded();
  await expect(confirmation).toBeInViewport();
});

test("the Korean footer shows the seller's details and links the FTC's page of the business", async ({ page }) => {
  await page.goto('/ko');
  const company = page.getByRole('contentinfo').getByRole('region', { name: koShell.footer.label });
  await expect(company).toContainText(koShell.footer.company.hostingLabel);
  await expect(company).toContainText(koShell.footer.company.phoneLabel);
  const check = company.getByRole('link', { name: new RegExp(koShell.footer.company.businessInfoLink) });
  await expect(check).toHaveAttribute('href', 'https://www.ftc.go.kr/bizCommPop.do?wrkr_no=0000000000');
  await expect(page.getByRole('link', { name: koShell.footer.links.tokushoho })).toHaveCount(0);
});
