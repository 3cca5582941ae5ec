import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { ADMIN, API, adminHeaders, couponGroup, unique } from './admin';
import { signUpAndLogIn } from './members';

/**
 * Coupons against the real stack: the test-only admin API makes a coupon group (the spec's test group:
 * 30-day licences at 30% off) and an event banner with images; a member who arrives with the code sees
 * the banner, follows it, buys at the coupon price and finds the code in the purchase history; an
 * account-constrained code is refused the second time with -613.
 */

const SANDBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;
const PASSWORD = 'unicorn2026';
// A 1x1 PNG: a real image, as the admin API checks.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const TEST_GROUP = {
  name: 'e2e test group',
  couponGroupType: 'public',
  availableDuration: 30,
  factor: '0.3',
  operator: 'multiply',
  subIssuedCount: 4294967295,
  currency: 'KRW',
};

test.describe('coupons', () => {
  // One run is enough: the backend limits mails per client.
  test.skip(({ isMobile }) => isMobile, 'runs in the desktop project only');

  test('a member follows the event banner of a code and buys at the coupon price', async ({ page, request }) => {
    test.setTimeout(120_000);
    const code = unique('E2E');
    const groupId = await couponGroup(request, { ...TEST_GROUP, code });
    const text = `${code} 30% 할인`;
    const banner = await request.post(`${ADMIN}/event-banners`, {
      headers: await adminHeaders(request),
      multipart: {
        eventBanner: JSON.stringify({
          type: 'event',
          startAt: new Date(Date.now() - 86_400_000).toISOString(),
          endAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          couponGroupId: groupId,
          localizations: [{ langCode: 'ko', text, url: `/ko/purchase?code=${code}` }],
        }),
        'ko.pcImage': { name: 'pc.png', mimeType: 'image/png', buffer: PNG },
        'ko.mobileImage': { name: 'mobile.png', mimeType: 'image/png', buffer: PNG },
      },
    });
    expect(banner.ok(), await banner.text()).toBe(true);

    const email = `e2e-coupon-${Date.now()}@example.com`;
    await signUpAndLogIn(page, email, PASSWORD);

    // The banner shows with its uploaded image to a visitor who came with the code, and leads to the purchase page.
    await page.goto(`/ko?code=${code}`);
    const event = page.getByRole('region', { name: ko.banners.eventLabel });
    const image = event.getByRole('img', { name: text });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await event.getByRole('link').click();

    await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
    await expect(page.getByTestId('applied-coupon')).toContainText(code);
    await page.getByRole('radio', { name: /월간 구독/ }).check();
    const summary = page.getByRole('complementary', { name: ko.purchase.summaryHeading });
    await expect(summary.getByText('2,030원', { exact: true })).toBeVisible();
    await page.getByLabel(ko.purchase.agreeAll).check();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: '2,030원 결제하기' }).click();
    const window = await popup;
    await window.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText(ko.payments.confirm.paid)).toBeVisible();

    // The purchase history shows the payment at the coupon price, and its detail the code.
    await page.goto('/ko/purchase-history');
    const row = page.getByRole('row').filter({ hasText: '2,030원' });
    await expect(row.getByText(ko.payments.statuses.paid)).toBeVisible();
    await row.getByRole('link').click();
    await expect(page.getByText(code, { exact: true })).toBeVisible();
  });

  test('a second use of an account-constrained code answers -613', async ({ page, request }) => {
    test.setTimeout(90_000);
    const code = unique('ONCE');
    await couponGroup(request, { ...TEST_GROUP, constraintType: 'account', code });
    const email = `e2e-once-${Date.now()}@example.com`;

    // The first use: a guest order with the code, paid in the sandbox's window, confirmed.
    const ordered = await request.post(`${API}/payments/licenses/new`, {
      data: { licenseId: 111, countryCode: 'KR', paymentMethod: 'creditCard', email, code },
    });
    expect(ordered.ok(), await ordered.text()).toBe(true);
    const order = await ordered.json();
    expect(order.amount).toBe(2030);
    const checkout = await request.post(`${SANDBOX}/sandbox/checkout`, {
      data: {
        pg: order.pg,
        pay_method: order.payMethod,
        merchant_uid: order.merchantUid,
        name: order.name,
        amount: order.amount,
        currency: order.currency,
        buyer_email: order.buyerEmail,
        card_number: '4111111111111111',
      },
    });
    expect(checkout.ok(), await checkout.text()).toBe(true);
    const confirmed = await request.post(`${API}/payments/licenses/new/confirm`, {
      data: { impUid: (await checkout.json()).imp_uid, merchantUid: order.merchantUid },
    });
    expect(confirmed.ok(), await confirmed.text()).toBe(true);

    // The second time, the check answers -613, and the coupon box says so.
    const check = await request.post(`${API}/payments/coupons/check`, { data: { code, email, purchaseType: 'new' } });
    expect((await check.json()).errorCode).toBe(-613);
    await page.goto('/ko/purchase');
    await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
    await page.getByLabel(ko.coupon.label).fill(code);
    await page.getByRole('button', { name: ko.coupon.apply }).click();
    await expect(page.getByText(ko.coupon.errorCodes['-613'])).toBeVisible();
  });
});
