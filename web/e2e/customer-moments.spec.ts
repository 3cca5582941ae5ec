import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';

/**
 * Issue 43's moments after paying, at 375 and 1280 px in English with a Korean check: the money-back request asks
 * in a dialog that states the amount, the card it goes back to and that the app stops on every device; a member
 * starts a second subscription with the card on file, never typing it again. (The amount on a bought licence's
 * upgrade result is checked in upgrades.spec.ts, where that upgrade is made.)
 */

const API = '/web/unicornpro/v1';
const PASSWORD = 'moments2026pw';
const CARD = { cardNumber: '4111111111111111', expiryYear: new Date().getFullYear() + 3, expiryMonth: 12, password: '12', birth: '900101' };

test('money back asks in a dialog that says what happens; a second subscription takes the card on file', async ({ page }, info) => {
  test.setTimeout(120_000);
  const email = `e2e-moments-${info.project.name}-${Date.now()}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  const bearer = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const bought = await buyByCard(page.request, { email, accessToken: (await login.json()).accessToken });

  // The money-back dialog: amount, card, every device; Escape keeps the licence; it fits a phone.
  await page.goto(`/en/license/${bought.userLicenseId}`);
  const texts = en.licences.moneyBack;
  await page.getByRole('button', { name: texts.ask }).click();
  const dialog = page.getByRole('alertdialog', { name: texts.confirmTitle });
  const summary = dialog.getByTestId('money-back-summary');
  await expect(summary).toContainText('24,360');
  await expect(summary).toContainText('1111');
  await expect(summary).toContainText('every device');
  await expect(dialog.getByRole('button', { name: texts.keep })).toBeFocused();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true);
  await expect(dialog.getByRole('button', { name: texts.confirmButton })).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.goto(`/ko/license/${bought.userLicenseId}`);
  await page.getByRole('button', { name: ko.licences.moneyBack.ask }).click();
  await expect(page.getByRole('alertdialog', { name: ko.licences.moneyBack.confirmTitle })).toContainText('24,360원');
  await page.getByRole('button', { name: ko.licences.moneyBack.keep }).click();

  // A card on file (the payment-methods page's) is offered beside a new card, and subscribing with it just works.
  const saved = await page.request.put(`${API}/billingkeys`, { headers: bearer, data: CARD });
  expect(saved.ok(), await saved.text()).toBe(true);
  await page.goto('/en/purchase');
  await page.getByRole('radio', { name: new RegExp(`^${en.purchase.periods.monthly}`) }).check();
  await page.getByLabel(en.purchase.autoRenew).check();
  const cards = page.getByRole('group', { name: en.purchase.savedCards.heading });
  await expect(cards.getByRole('radio', { name: /1111/ })).toBeChecked();
  await expect(page.getByLabel(en.purchase.card.number)).toHaveCount(0);
  await page.getByLabel(en.purchase.agreeAll).check();
  await page.getByRole('button', { name: /^Subscribe for/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.payments.confirm.subscribedHeading })).toBeVisible();
  await expect(page.getByTestId('charged-amount')).toContainText('2,900');
  await expect(page.getByText(/1111/)).toBeVisible();
});
