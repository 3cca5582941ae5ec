/** A customer downloads the receipt of a purchase as a PDF, in the language they choose, from the purchase history. */
import { readFile } from 'node:fs/promises';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';

const API = '/web/unicornpro/v1';
const PASSWORD = 'abcd1234';

test('a customer downloads the receipt PDF in Japanese from the purchase history', async ({ page }, info) => {
  const email = `papers-${info.project.name}-${Date.now()}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const { merchantUid } = await buyByCard(page.request, { email, accessToken });

  await page.goto('/ko/purchase-history');
  await expect(page.getByRole('heading', { level: 1, name: ko.payments.history.heading })).toBeVisible();
  await page.locator('table').getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/ko/purchase-history/${merchantUid}$`));
  const papers = page.getByRole('region', { name: ko.papers.heading });
  await expect(papers).toBeVisible();

  await papers.getByLabel(ko.papers.language).selectOption('ja');
  const downloading = page.waitForEvent('download');
  await papers.getByRole('button', { name: ko.papers.receipt }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`receipt-${merchantUid}-ja.pdf`);
  const saved = await download.path();
  const content = await readFile(saved);
  expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The same document again: the same bytes.
  const again = await page.request.get(`${API}/payments/licenses/${merchantUid}/receipt?langCode=ja`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(again.ok()).toBe(true);
  expect(Buffer.compare(await again.body(), content)).toBe(0);
});

test('a member paying by virtual account asks for a business cash receipt at checkout and sees it masked', async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const email = `papers-vbank-${info.project.name}-${Date.now()}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  await page.getByRole('radio', { name: ko.purchase.methods.virtualAccount }).check();
  const choice = page.getByRole('group', { name: ko.purchase.cashReceipt.heading });
  await choice.getByRole('radio', { name: ko.purchase.cashReceipt.types.business }).check();
  await choice.getByLabel(ko.purchase.cashReceipt.businessNumber).fill('124-81-00998');
  await page.getByLabel(ko.purchase.agreeAll).check();
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: /결제하기$/ }).click();
  const window = await popup;
  await window.getByRole('button', { name: 'Issue virtual account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.reservedHeading })).toBeVisible();

  await page.goto('/ko/purchase-history');
  await page.locator('table').getByRole('link').first().click();
  const papers = page.getByRole('region', { name: ko.papers.heading });
  await expect(papers).toContainText(`${ko.papers.cashReceipt.kinds.business} 124-81-*****`);
  await expect(papers).toContainText(ko.papers.cashReceipt.states.requested);
  await expect(page.getByRole('main')).not.toContainText('00998');
});
