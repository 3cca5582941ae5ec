import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';
import { approveInWindow } from './windows';

/**
 * Billing keys issued in a PG window (KakaoPay, Naver Pay) against the real stack and the PortOne
 * sandbox's window: a guest subscribes through the popup, a phone whose browser opens no popups is
 * sent to the window and back, and a member resumes and changes the card through windows.
 */

const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;
const PASSWORD = 'unicorn2026';
const MONTHLY = /월간 구독/;

function address(kind: string, project: string): string {
  return `e2e-${kind}-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The purchase page with a monthly auto-renewing licence, the method chosen and everything agreed. */
async function chooseMonthlySubscription(page: Page, method: string, email?: string) {
  await page.goto('/ko/purchase');
  await page.getByRole('radio', { name: MONTHLY }).check();
  await page.getByLabel(ko.purchase.autoRenew).check();
  await page.getByRole('radio', { name: method }).check();
  if (email) await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(ko.purchase.agreeAll).check();
}

const subscribeButton = (page: Page) => page.getByRole('button', { name: '2,900원 구독 시작하기' });

test.describe('a guest subscribing through a payment window', () => {
  test('registers KakaoPay in its popup and gets the licence key of a running subscription', async ({ page }, info) => {
    test.skip(info.project.name !== 'desktop-chromium', 'the popup flow runs on the desktop');
    const email = address('kakao-guest', info.project.name);
    await chooseMonthlySubscription(page, ko.purchase.methods.kakaopay, email);
    await expect(page.getByText('카카오페이 결제창에서 결제 수단을 등록하면 첫 기간이 바로 결제됩니다.')).toBeVisible();
    await expect(page.getByLabel(ko.purchase.card.number)).toHaveCount(0);

    const popup = page.waitForEvent('popup');
    await subscribeButton(page).click();
    const window = await popup;
    await expect(window.getByRole('cell', { name: 'kakaopay' })).toBeVisible();
    await expect(window.getByRole('cell', { name: '0', exact: true })).toBeVisible(); // the window charges nothing itself
    await window.getByRole('button', { name: 'Approve' }).click();

    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.subscribedHeading })).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
    await expect(page.getByTestId('next-payment')).toBeVisible();
  });

  test('on a phone that opens no popups, goes to the Naver Pay window and comes back subscribed', async ({ page }, info) => {
    test.skip(info.project.name !== 'mobile-chromium', 'the redirect flow is the phone one');
    // A browser that blocks the popup: the SDK sends the whole page to the window, which returns by m_redirect_url.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await chooseMonthlySubscription(page, ko.purchase.methods.naverpay, address('naver-phone', info.project.name));
    await subscribeButton(page).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\?/);
    await expect(page.getByRole('cell', { name: 'naverpay' })).toBeVisible();
    await page.getByRole('button', { name: 'Approve' }).click();

    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.subscribedHeading })).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
    // The gateway's query is dropped, so that a reload starts nothing again.
    await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
  });

  test('who closes the window lands on the failure page that says so', async ({ page }, info) => {
    test.skip(info.project.name !== 'desktop-chromium', 'the popup flow runs on the desktop');
    await chooseMonthlySubscription(page, ko.purchase.methods.naverpay, address('naver-closed', info.project.name));
    const popup = page.waitForEvent('popup');
    await subscribeButton(page).click();
    await (await popup).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.failure.heading })).toBeVisible();
    await expect(page.getByText(ko.payments.errorCodes.STOP)).toBeVisible();
  });
});

test.describe('a subscriber with an account', () => {
  // One run is enough: the backend limits mails per client.
  test.skip(({ isMobile }) => isMobile, 'runs in the desktop project only');

  test('resumes with a Naver Pay key and changes the payment method to a KakaoPay key', async ({ page }, info) => {
    test.setTimeout(120_000);
    const email = address('window-member', info.project.name);
    await signUpAndLogIn(page, email, PASSWORD);

    // Subscribed with a card typed on the page, then auto-renewal cancelled.
    await chooseMonthlySubscription(page, ko.purchase.methods.creditCard);
    await page.getByLabel(ko.purchase.card.number).fill('4111111111111111');
    await page.getByLabel(ko.purchase.card.month, { exact: true }).selectOption('12');
    await page.getByLabel(ko.purchase.card.year, { exact: true }).selectOption(String(new Date().getFullYear() + 3));
    await page.getByLabel(ko.purchase.card.password).fill('12');
    await page.getByLabel(ko.purchase.card.birth).fill('900101');
    await subscribeButton(page).click();
    const key = (await page.getByTestId('license-key').textContent())?.trim() ?? '';
    expect(key).toMatch(KEY_SHAPE);
    await page.goto('/ko/license');
    await page.getByRole('listitem').filter({ hasText: key }).getByRole('link').first().click();
    const section = page.getByRole('region', { name: ko.subscriptions.heading });
    await section.getByRole('button', { name: ko.subscriptions.cancel }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: ko.subscriptions.cancel }).click();
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.cancelled);

    // Resumed with a key registered in the Naver Pay window.
    await section.getByRole('button', { name: ko.subscriptions.resumeNewCard }).click();
    let popup = page.waitForEvent('popup');
    await section.getByRole('button', { name: '네이버페이(으)로 등록' }).click();
    let window = await popup;
    await window.getByLabel('Card number').fill('4000000000000077');
    await approveInWindow(window);
    await expect(section.getByText(ko.subscriptions.resumed)).toBeVisible();
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
    await expect(section.getByTestId('subscription-card')).toContainText('0077');

    // The payment method changed to a key registered in the KakaoPay window.
    await section.getByRole('button', { name: ko.subscriptions.changeMethod }).click();
    popup = page.waitForEvent('popup');
    await section.getByRole('button', { name: '카카오페이(으)로 등록' }).click();
    window = await popup;
    await window.getByLabel('Card number').fill('5555444433332222');
    await approveInWindow(window);
    await expect(section.getByText(ko.subscriptions.changed)).toBeVisible();
    await expect(section.getByTestId('subscription-card')).toContainText('2222');

    // A window closed without registering changes nothing.
    await section.getByRole('button', { name: ko.subscriptions.changeMethod }).click();
    popup = page.waitForEvent('popup');
    await section.getByRole('button', { name: '카카오페이(으)로 등록' }).click();
    await (await popup).getByRole('button', { name: 'Close' }).click();
    await expect(section.getByText(ko.subscriptions.windowClosed)).toBeVisible();
    await expect(section.getByTestId('subscription-card')).toContainText('2222');
  });
});
