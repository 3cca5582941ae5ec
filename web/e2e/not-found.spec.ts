import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ko } from '../src/i18n/ko';

/** Issue 29, finding 15: an address no page has is answered HTTP 404, with the app's not-found page. */

test.skip(({ isMobile }) => isMobile, 'the status does not depend on the layout');

test('an unknown address answers 404 and shows the not-found page; real pages answer 200', async ({ page }) => {
  const missing = await page.goto('/ko/no-such-page');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: ko.notFound.heading })).toBeVisible();
  const nested = await page.goto('/en/purchase/extra/segments');
  expect(nested?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: en.notFound.heading })).toBeVisible();
  for (const real of ['/ko', '/en/purchase', '/ja/license/123/upgrade', '/purchase', '/register/confirm']) {
    expect((await page.request.get(real)).status(), real).toBe(200);
  }
});
