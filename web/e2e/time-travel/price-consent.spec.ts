import type { Page } from '@playwright/test';
import { expect, test } from '../clients';
import { ja } from '../../src/i18n/ja';
import { ko } from '../../src/i18n/ko';
import { API, PASSWORD, bearer } from '../exit';
import { firstLink, waitForMail } from '../mail';
import { harnessMember } from '../staff';

/**
 * Consent before a price rise (docs/catalogue.md; Korea's E-Commerce Act Art. 13(6)): marketing raises a monthly plan
 * from 4,900원 to 5,500원; a Korean and a Japanese subscriber are mailed the request, see the notice on their licence
 * page in their language, and agree with its button; the renewal 30 days on keeps the old price, the one at the change
 * charges the new. It moves the shared clock, so it runs in the `time-travel` project; the plan (313) is no other
 * story's.
 */

const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const PLAN = 313;
const CARD = { cardNumber: '4111111111111111', expiryYear: new Date().getFullYear() + 3, expiryMonth: 12, password: '12', birth: '900101' };

async function subscriber(page: Page, email: string, language: 'ko' | 'ja'): Promise<string> {
  const registered = await page.request.post(`${API}/accounts`, {
    data: { email, pw: PASSWORD, language, marketingPushEnabled: false },
  });
  expect(registered.ok()).toBe(true);
  await page.goto(firstLink(await waitForMail(email)));
  const started = await page.request.post(`${API}/payments/licenses/subscribe/new/new-billingkey`, {
    headers: await bearer(page, email),
    data: { licenseId: PLAN, card: CARD },
  });
  expect(started.ok(), await started.text()).toBe(true);
  return String((await started.json()).userLicenseId);
}

test('a price rise is charged only to subscribers who agreed on their licence page, in ko and ja', async ({ browser, request }, info) => {
  test.skip(info.project.name !== 'time-travel');
  test.setTimeout(240_000);
  const stamp = Date.now();
  const koPage = await (await browser.newContext()).newPage();
  const jaPage = await (await browser.newContext()).newPage();
  const koEmail = `e2e-consent-ko-${stamp}@example.com`;
  const jaEmail = `e2e-consent-ja-${stamp}@example.com`;
  const koLicence = await subscriber(koPage, koEmail, 'ko');
  const jaLicence = await subscriber(jaPage, jaEmail, 'ja');

  const { page: desk, context } = await harnessMember(browser, request, `consent-${stamp}@example.com`, 'marketing');
  await desk.getByRole('link', { name: 'Catalogue' }).click();
  const form = desk.getByRole('form', { name: 'New version' });
  await form.getByLabel(`Price ${PLAN} KR`).fill('5500');
  await form.getByLabel('Reason').fill('dearer Windows plan');
  await form.getByRole('button', { name: 'Schedule this version' }).click();
  await expect(desk.getByText('Scheduled version')).toBeVisible();
  await context.close();

  // The request by mail, in each language; its link opens the notice, which agrees to nothing by itself.
  const koMail = await waitForMail(koEmail, { match: (mail) => mail.subject.includes('동의 요청') });
  expect(koMail.text).toContain('4,900원');
  expect(koMail.text).toContain('5,500원');
  const jaMail = await waitForMail(jaEmail, { match: (mail) => mail.subject.includes('同意のお願い') });
  expect(jaMail.text).toContain(`/ja/license/${jaLicence}?subscription=price`);

  for (const [page, lang, licence, texts] of [
    [koPage, 'ko', koLicence, ko],
    [jaPage, 'ja', jaLicence, ja],
  ] as const) {
    await page.goto(`/${lang}/license/${licence}?subscription=price`);
    const notice = page.getByRole('region', { name: texts.subscriptions.priceRise.heading });
    await expect(notice).toContainText('5,500');
    await expect(notice.getByRole('button', { name: texts.subscriptions.priceRise.stop })).toBeVisible();
    await notice.getByRole('button', { name: texts.subscriptions.priceRise.agree }).click();
    await expect(notice.getByTestId('price-rise-answer')).toContainText('5,500');
  }

  // Day 30 renews at the old price; day 60, the change, at the new one.
  for (const days of [30, 30]) {
    const moved = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days, seconds: 60 } });
    expect(moved.ok()).toBe(true);
    const run = await request.post(`${API}/test-harness/renewals/run`, { headers: ADMIN });
    expect(run.ok()).toBe(true);
  }
  for (const [page, email] of [
    [koPage, koEmail],
    [jaPage, jaEmail],
  ] as const) {
    const history = await page.request.get(`${API}/payments/licenses`, { headers: await bearer(page, email) });
    const renewals = ((await history.json()) as { purchaseType: string; amount: number; status: string; merchantUid: string }[])
      .filter((record) => record.purchaseType === 'renewal' && record.status === 'paid')
      .sort((one, other) => Number(one.merchantUid.split('-')[2]) - Number(other.merchantUid.split('-')[2]));
    expect(renewals.map((record) => record.amount)).toEqual([4900, 5500]);
  }
});
