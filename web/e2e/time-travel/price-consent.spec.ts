import type { Page } from '@playwright/test';
import { expect, test } from '../clients';
import { ja } from '../../src/i18n/ja';
import { ko } from '../../src/i18n/ko';
import { API, PASSWORD, bearer } from '../exit';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { firstLink, outboxDir, parseMail, waitForMail } from '../mail';
import { harnessMember } from '../staff';

/**
 * Consent before a price rise (docs/catalogue.md; Korea's E-Commerce Act Art. 13(6)): marketing raises a monthly plan
 * from 4,900원 to 5,500원; a Korean and a Japanese subscriber are mailed the request, see the notice on their licence
 * page in their language, and agree with its button; the renewal 30 days on keeps the old price, the one at the change
 * charges the new. A third subscriber does nothing: reminded once a week before the change, never charged the new
 * price, mailed that auto-renewal stopped. A fourth declines: auto-renewal stops, and no reminder asks again. It moves
 * the shared clock, so it runs in the `time-travel` project; the plan (313) is no other story's.
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

type Renewal = { purchaseType: string; amount: number; status: string; merchantUid: string };

/** The amounts of a subscriber's paid renewals, oldest first. */
async function renewalAmounts(page: Page, email: string): Promise<number[]> {
  const history = await page.request.get(`${API}/payments/licenses`, { headers: await bearer(page, email) });
  return ((await history.json()) as Renewal[])
    .filter((record) => record.purchaseType === 'renewal' && record.status === 'paid')
    .sort((one, other) => Number(one.merchantUid.split('-')[2]) - Number(other.merchantUid.split('-')[2]))
    .map((record) => record.amount);
}

/** The subjects of every mail sent to `to` so far. */
async function subjects(to: string): Promise<string[]> {
  const names = (await readdir(outboxDir)).filter((name) => name.endsWith('.eml'));
  const mails = await Promise.all(names.map(async (name) => parseMail(name, await readFile(path.join(outboxDir, name), 'utf8'))));
  return mails.filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase())).map((mail) => mail.subject);
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
  const silentPage = await (await browser.newContext()).newPage();
  const declinerPage = await (await browser.newContext()).newPage();
  const silentEmail = `e2e-consent-silent-${stamp}@example.com`;
  const declinerEmail = `e2e-consent-decliner-${stamp}@example.com`;
  await subscriber(silentPage, silentEmail, 'ko');
  const declinerLicence = await subscriber(declinerPage, declinerEmail, 'ja');

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

  // The fourth declines on the page: auto-renewal stops; the silent one does nothing.
  await declinerPage.goto(`/ja/license/${declinerLicence}?subscription=price`);
  const declined = declinerPage.getByRole('region', { name: ja.subscriptions.priceRise.heading });
  await declined.getByRole('button', { name: ja.subscriptions.priceRise.stop }).click();
  await expect(declined.getByTestId('price-rise-answer')).toHaveText(ja.subscriptions.priceRise.declined);
  await waitForMail(silentEmail, { match: (mail) => mail.subject.includes('동의 요청') });

  // Day 30 renews at the old price; a week before the change the one reminder goes to who has not answered; day 60,
  // the change, charges the new price to who agreed and stops auto-renewal for who did not.
  const move = async (days: number, run: 'renewals' | 'reminders') => {
    const moved = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days, seconds: 60 } });
    expect(moved.ok()).toBe(true);
    expect((await request.post(`${API}/test-harness/${run}/run`, { headers: ADMIN })).ok()).toBe(true);
  };
  await move(30, 'renewals');
  await move(24, 'reminders');
  await waitForMail(silentEmail, { match: (mail) => mail.subject.includes('다시 알림') });
  await move(6, 'renewals');
  await waitForMail(silentEmail, { match: (mail) => mail.subject.includes('자동 갱신이 중단') });

  for (const [page, email] of [
    [koPage, koEmail],
    [jaPage, jaEmail],
  ] as const) {
    expect(await renewalAmounts(page, email)).toEqual([4900, 5500]);
  }
  expect(await renewalAmounts(silentPage, silentEmail), 'never the new price without an agreement').toEqual([4900]);
  expect(await renewalAmounts(declinerPage, declinerEmail), 'auto-renewal stopped by the decline').toEqual([]);
  // The silent one's reminder and lapse went out after any reminder the decliner could have been sent: none was.
  expect((await subjects(declinerEmail)).filter((subject) => subject.includes('【再送】'))).toEqual([]);
});
