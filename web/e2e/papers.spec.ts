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
