import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './clients';

/**
 * Collects console errors and uncaught exceptions of a page. Chromium's "Failed to load resource"
 * lines for API answers with an error status are left out: the app handles those answers (the
 * event-banner endpoint, for one, answers 404 until the server has it).
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const isApiAnswer =
      message.text().startsWith('Failed to load resource') && message.location().url.includes('/web/unicornpro/v1/');
    if (!isApiAnswer) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('language prefix', () => {
  test('/ lands on /ko with the Korean home page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/ko$/);
    await expect(page.getByRole('heading', { level: 1, name: '대한민국 1등 광고 차단 앱' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page).toHaveTitle('유니콘 - 대한민국 1등 광고 차단 앱');
  });

  test('a langCode=en cookie sends / to /en', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'langCode', value: 'en', url: baseURL! }]);
    await page.goto('/');
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.getByRole('heading', { level: 1, name: "Korea's No.1 ad-blocking app" })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('/purchase?code=ABC keeps its path and coupon code', async ({ page }) => {
    await page.goto('/purchase?code=ABC');
    await expect(page).toHaveURL(/\/ko\/purchase\?code=ABC$/);
    await expect(page.getByRole('heading', { level: 1, name: '구매하기' })).toBeVisible();
  });

  test('links built by the app carry the coupon code along', async ({ page }) => {
    await page.goto('/ko/purchase?code=ABC');
    await page.getByRole('link', { name: '유니콘 홈' }).click();
    await expect(page).toHaveURL(/\/ko\?code=ABC$/);
  });

  test.describe('with a Japanese browser', () => {
    test.use({ locale: 'ja-JP' });

    test('/ lands on /ja', async ({ page }) => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/ja$/);
      await expect(page.getByRole('heading', { level: 1, name: '韓国No.1の広告ブロックアプリ' })).toBeVisible();
    });
  });

  test('an unknown path under a language shows the not-found page', async ({ page }) => {
    await page.goto('/en/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });
});

test.describe('home page', () => {
  test('renders without console errors, with header and lazy footer', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/ko');
    await expect(page.getByRole('heading', { level: 1, name: '대한민국 1등 광고 차단 앱' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('유니콘 주식회사');
    await expect(page.getByRole('navigation', { name: '바로가기' }).getByRole('link')).toHaveCount(9);
    expect(errors).toEqual([]);
  });

  test('has no detectable accessibility violations', async ({ page }) => {
    await page.goto('/ko');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('My Account sends an anonymous visitor to the login page', async ({ page }) => {
    await page.goto('/ko?code=ABC');
    await page.getByRole('button', { name: '내 계정' }).click();
    await expect(page).toHaveURL(/\/ko\/login\?code=ABC$/);
    await expect(page.getByRole('heading', { level: 1, name: '로그인' })).toBeVisible();
  });

  test('the lazy footer starts below the first screen, so a page growing as it loads moves nothing in view', async ({ page }) => {
    await page.goto('/ko/login');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('유니콘 주식회사');
    const viewport = page.viewportSize();
    expect((await footer.boundingBox())?.y).toBeGreaterThanOrEqual(viewport?.height ?? Infinity);
  });

  test('header has the layout heights of the spec', async ({ page, isMobile }) => {
    await page.goto('/ko');
    const header = page.getByRole('banner');
    await expect(header).toBeVisible();
    const box = await header.boundingBox();
    expect(box?.height).toBe(isMobile ? 46 : 60);
  });
});

test.describe('mobile navigation', () => {
  test('the menu button opens the navigation over a dimmer', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the menu button exists at 768px or narrower');
    await page.goto('/ko');
    const toggle = page.getByRole('button', { name: '메뉴 열기' });
    await toggle.click();
    const nav = page.getByRole('navigation', { name: '주 메뉴' });
    await expect(nav.getByRole('link', { name: '구매하기' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: '구매하기' })).toBeHidden();
  });
});
