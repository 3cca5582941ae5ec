import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';

/**
 * A monthly subscription on the licence detail page against the real stack: next payment, cancel
 * auto-renewal, resume with the previous card, change the payment method to a new card.
 */

const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;
const PASSWORD = 'unicorn2026';
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

async function fillCard(page: Page, cardNumber: string) {
  await page.getByLabel(ko.purchase.card.number).fill(cardNumber);
  await page.getByLabel(ko.purchase.card.month, { exact: true }).selectOption('12');
  await page.getByLabel(ko.purchase.card.year, { exact: true }).selectOption(String(new Date().getFullYear() + 3));
  await page.getByLabel(ko.purchase.card.password).fill('12');
  await page.getByLabel(ko.purchase.card.birth).fill('900101');
}

test.describe('a subscriber', () => {
  // One run is enough: the backend limits mails per client.
  test.skip(({ isMobile }) => isMobile, 'runs in the desktop project only');

  test('sees the next payment, cancels auto-renewal, resumes, and changes the card', async ({ page }, info) => {
    test.setTimeout(120_000);
    const email = `e2e-subscriber-${info.project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

    // An account registered and confirmed through its mail, then logged in.
    await signUpAndLogIn(page, email, PASSWORD);

    // A monthly subscription with automatic payment and a new card.
    await page.goto('/ko/purchase');
    await page.getByRole('radio', { name: /월간 구독/ }).check();
    await page.getByLabel(ko.purchase.autoRenew).check();
    await page.getByLabel(ko.purchase.agreeAll).check();
    await fillCard(page, '4111111111111111');
    await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.subscribedHeading })).toBeVisible();
    const key = (await page.getByTestId('license-key').textContent())?.trim() ?? '';
    expect(key).toMatch(KEY_SHAPE);

    // The licence detail shows the subscription.
    await page.goto('/ko/license');
    // Issue 29, finding 13: the list tells an auto-renewing subscription apart, with its next charge.
    const item = page.getByRole('listitem').filter({ hasText: key });
    await expect(item.getByTestId('licence-renewal')).toHaveText(ko.licences.autoRenewing);
    await expect(item.getByTestId('licence-next-charge')).toHaveText(DATE_TIME);
    await item.getByRole('link').first().click();
    const section = page.getByRole('region', { name: ko.subscriptions.heading });
    await expect(section.getByTestId('subscription-next-payment')).toHaveText(DATE_TIME);
    await expect(section.getByText('2,900원')).toBeVisible();
    await expect(section.getByTestId('subscription-card')).toContainText('1111');
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);

    // Cancelling asks first and says how long the licence stays valid.
    await section.getByRole('button', { name: ko.subscriptions.cancel }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}까지 사용할 수 있고/);
    // Issue 29, finding 16: the buttons say which way each goes (not '취소' beside '자동 갱신 해지').
    await expect(dialog.getByRole('button', { name: ko.subscriptions.keepRenewing })).toBeVisible();
    await expect(dialog.getByRole('button', { name: ko.common.cancel, exact: true })).toHaveCount(0);
    await dialog.getByRole('button', { name: ko.subscriptions.cancel }).click();
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.cancelled);
    await expect(section.getByTestId('subscription-paid-until')).toHaveText(DATE_TIME);
    await expect(section.getByTestId('subscription-next-payment')).toHaveCount(0);

    // Resuming with the previous card turns auto-renewal back on.
    await section.getByRole('button', { name: ko.subscriptions.resumePrevious }).click();
    await expect(section.getByText(ko.subscriptions.resumed)).toBeVisible();
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
    await expect(section.getByTestId('subscription-next-payment')).toHaveText(DATE_TIME);

    // Changing the payment method to a newly added card; the card fields validate first.
    await section.getByRole('button', { name: ko.subscriptions.changeMethod }).click();
    await section.getByRole('button', { name: ko.subscriptions.addCard }).click();
    await section.getByRole('button', { name: ko.subscriptions.submitCard }).click();
    await expect(section.getByText(ko.purchase.validation.cardNumber)).toBeVisible();
    await fillCard(page, '4242424242424242');
    await section.getByRole('button', { name: ko.subscriptions.submitCard }).click();
    await expect(section.getByText(ko.subscriptions.changed)).toBeVisible();
    await expect(section.getByTestId('subscription-card')).toContainText('4242');
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
  });
});
