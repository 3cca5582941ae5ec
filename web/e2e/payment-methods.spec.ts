import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';
import { couponGroup, unique } from './admin';

/**
 * How a visitor pays, against the real stack: the country is the server's (the trusted CF-IPCountry header
 * the e2e stack is configured to read, else KR), so the currency and the methods follow it and not the
 * language; points go through kcp; a visitor in the US pays dollars by card on kcp; a visitor from a
 * country without its own prices pays the US price, and a US-only coupon does not discount it.
 */

const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;

function guestEmail(project: string): string {
  return `e2e-methods-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Clicks Pay and gives back the sandbox's window. */
async function openWindow(page: Page, payLabel: string) {
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: payLabel }).click();
  const window = await popup;
  await expect(window.getByRole('heading', { name: 'PortOne sandbox' })).toBeVisible();
  return window;
}

function windowRow(window: Page, label: string) {
  return window.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell');
}

test('a visitor from Korea pays with points, through kcp, and gets the key', async ({ page }, info) => {
  test.setTimeout(60_000);
  await page.goto('/ko/purchase');
  await page.getByRole('radio', { name: ko.purchase.methods.point }).check();
  await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(guestEmail(info.project.name));
  await page.getByLabel(ko.purchase.agreeAll).check();

  const window = await openWindow(page, '24,360원 결제하기');
  await expect(windowRow(window, 'Payment method')).toHaveText('point');
  await expect(windowRow(window, 'Gateway')).toHaveText('kcp');
  await expect(window.getByLabel('Card number')).toHaveCount(0);
  await window.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
  await expect(page.getByText(ko.payments.confirm.paid)).toBeVisible();
  await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
});

test('switching language keeps the currency of a visitor from Korea', async ({ page }) => {
  await page.goto('/ko/purchase');
  await expect(page.getByRole('button', { name: '24,360원 결제하기' })).toBeVisible();
  await page.goto('/en/purchase');
  await expect(page.getByRole('button', { name: 'Pay 24,360 KRW' })).toBeVisible();
  await page.goto('/ja/purchase');
  await expect(page.getByRole('button', { name: /24,360 KRW/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: ja.purchase.methods.point })).toBeVisible();
});

test.describe('a visitor in the US', () => {
  test.use({ extraHTTPHeaders: { 'CF-IPCountry': 'US' } });

  test('pays dollars by card on kcp, whatever the language, and is offered only the card', async ({ page }, info) => {
    test.setTimeout(60_000);
    await page.goto('/ko/purchase');
    await expect(page.getByRole('button', { name: '$25.11 결제하기' })).toBeVisible();
    await page.goto('/en/purchase');
    await expect(page.getByRole('radio', { name: en.purchase.methods.creditCard })).toBeChecked();
    await expect(page.getByRole('radio', { name: en.purchase.methods.point })).toHaveCount(0);
    await expect(page.getByRole('radio', { name: en.purchase.methods.virtualAccount })).toHaveCount(0);
    await page.getByLabel(en.purchase.emailLabel, { exact: true }).fill(guestEmail(info.project.name));
    await page.getByLabel(en.purchase.agreeAll).check();

    const window = await openWindow(page, 'Pay $25.11');
    await expect(windowRow(window, 'Gateway')).toHaveText('kcp');
    await expect(windowRow(window, 'Currency')).toHaveText('USD');
    await window.getByRole('button', { name: 'Approve' }).click();

    await expect(page).toHaveURL(/\/en\/payment\/confirm$/);
    await expect(page.getByText(en.payments.confirm.paid)).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
  });
});

test.describe('a US-only coupon', () => {
  const code = unique('USONLY');

  test.beforeAll(async ({ request }) => {
    await couponGroup(request, {
      name: 'us only',
      couponGroupType: 'public',
      constraintType: 'none',
      countries: ['US'],
      factor: '0.3',
      subIssuedCount: 100000,
      code,
    });
  });

  test.describe('seen from the US', () => {
    test.use({ extraHTTPHeaders: { 'CF-IPCountry': 'US' } });

    test('discounts the US price', async ({ page }) => {
      await page.goto(`/en/purchase?code=${code}`);
      await expect(page.getByRole('button', { name: 'Pay $17.57' })).toBeVisible();
    });
  });

  test.describe('seen from Germany, which has no price of its own', () => {
    test.use({ extraHTTPHeaders: { 'CF-IPCountry': 'DE' } });

    test('leaves the fallback US price as it is', async ({ page }) => {
      await page.goto(`/en/purchase?code=${code}`);
      await expect(page.getByRole('button', { name: 'Pay $25.11' })).toBeVisible();
      await expect(page.getByText(en.coupon.notForPlan)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Pay $17.57' })).toHaveCount(0);
    });
  });
});

test.describe('a promotion that takes the whole price off', () => {
  const code = unique('FREEMONTH');

  test.beforeAll(async ({ request }) => {
    await couponGroup(request, {
      name: 'free month',
      couponGroupType: 'public',
      constraintType: 'none',
      availableDuration: 30,
      factor: '1',
      subIssuedCount: 100000,
      code,
    });
  });

  test('buys a month for nothing: no payment window opens and the key is shown', async ({ page }, info) => {
    test.setTimeout(60_000);
    let windows = 0;
    page.on('popup', () => {
      windows += 1;
    });
    await page.goto(`/ko/purchase?code=${code}`);
    await page.getByRole('radio', { name: /월간 구독/ }).check();
    await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(guestEmail(info.project.name));
    await page.getByLabel(ko.purchase.agreeAll).check();
    await page.getByRole('button', { name: '0원 결제하기' }).click();

    await expect(page).toHaveURL(new RegExp(`/ko/payment/confirm\\?code=${code}$`)); // the code travels on
    await expect(page.getByText(ko.payments.confirm.paid)).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
    expect(windows).toBe(0);
  });
});
