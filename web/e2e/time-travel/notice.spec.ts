import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';

/**
 * A notice posted through the test-only admin API shows above the header of every page; closed, it
 * stays closed for a day (the page's clock moves, the server's does not).
 *
 * A notice shows on every page of every visitor, so this runs in the `time-travel` project, after the
 * other tests (see playwright.config.ts), and takes the notice down at the end. The window is wide
 * because the past-due story of this project moves the server's clock forward meanwhile.
 */

const ADMIN = '/web/unicornpro/v1/test-harness/admin';
const ADMIN_HEADERS = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const HOUR = 3_600_000;

test('a notice is shown, closed, and stays closed for a day', async ({ page, request }) => {
  const text = `점검 안내 ${Date.now()}`;
  const now = Date.now();
  const posted = await request.post(`${ADMIN}/event-banners`, {
    headers: ADMIN_HEADERS,
    multipart: {
      eventBanner: JSON.stringify({
        type: 'notice',
        startAt: new Date(now - 24 * HOUR).toISOString(),
        endAt: new Date(now + 120 * 24 * HOUR).toISOString(),
        localizations: [{ langCode: 'ko', text }],
      }),
    },
  });
  expect(posted.ok(), await posted.text()).toBe(true);
  const id = (await posted.json()).id;
  try {
    const notice = page.getByRole('region', { name: ko.banners.noticeLabel });
    await page.clock.setFixedTime(now);
    await page.goto('/ko');
    await expect(notice).toContainText(text);
    await notice.getByRole('button', { name: ko.banners.closeNotice }).click();
    await expect(notice).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(0);

    await page.clock.setFixedTime(now + 23 * HOUR);
    await page.goto('/ko/purchase');
    await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(0);

    await page.clock.setFixedTime(now + 25 * HOUR);
    await page.reload();
    await expect(notice).toContainText(text);
  } finally {
    await request.patch(`${ADMIN}/event-banners`, {
      headers: ADMIN_HEADERS,
      multipart: { eventBanner: JSON.stringify({ id, active: false }) },
    });
  }
});
