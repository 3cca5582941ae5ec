/**
 * Support's desk in Chromium (a virtual authenticator over the DevTools protocol for the member's passkey): a
 * customer's report with its screenshot is found among the open ads and closed as handled; the customer's page flags
 * the licence key seen on too many devices, mails the key again, and each timeline entry downloads its inclusion
 * proof; on the licence page the customer's money-back request keeps its state after a reload, and the refund is
 * mailed.
 *
 * The member comes from the test harness (POST /test-harness/staff/members), so this story does not depend on who
 * the first owner is. Passkeys cannot belong to an IP address, so the back office is opened on localhost.
 */
import { readFile } from 'node:fs/promises';
import { type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './clients';
import { waitForMail } from './mail';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';
import { ko } from '../src/i18n/ko';

const API = '/web/unicornpro/v1';
const port = Number(process.env.E2E_PORT ?? 8765);
const ADMIN = `http://localhost:${port}/admin`;
const ADMIN_TOKEN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const PASSWORD = 'supportdesk2026pw';
// A 24 x 16 PNG screenshot.
const SCREENSHOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAHElEQVR4nGM8ISfHQA3ARBVTRg0aNWjUoBFsEADurgEkli4RWAAAAABJRU5ErkJggg==',
  'base64',
);

test.skip(({ isMobile }) => isMobile, 'the back office is a desktop tool; one run is enough');

/** A staff member's own browser, with a platform authenticator that answers at once. */
async function staffBrowser(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  await context.addInitScript(() => localStorage.setItem('adminLang', 'en'));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page };
}

test('support closes a report, sees a flagged key, resends it and downloads proofs; money-back keeps its state', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();

  // A customer buys a one-device licence, reports an ad with a screenshot, and the key travels to four devices.
  const customer = `e2e-desk-${stamp}@example.com`;
  await signUpAndLogIn(page, customer, PASSWORD);
  const login = await page.request.post(`${API}/auth/login`, { data: { email: customer, pw: PASSWORD } });
  const bearer = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const bought = await buyByCard(page.request, { email: customer, accessToken: (await login.json()).accessToken });
  const pageAddress = `https://ads-${stamp}.example/article`;
  const reported = await page.request.post(`${API}/reports`, {
    headers: bearer,
    multipart: {
      product: 'uncpm',
      problem: 'ad',
      url: pageAddress,
      comment: 'A banner over the text',
      checked: 'true',
      images: { name: 'shot.png', mimeType: 'image/png', buffer: SCREENSHOT },
    },
  });
  expect(reported.ok(), await reported.text()).toBe(true);
  for (const device of ['a', 'b', 'c', 'd'].map((name) => `desk-${stamp}-${name}`)) {
    const activated = await page.request.post(`${API}/licenses/activate`, {
      data: { licenseKey: bought.licenseKey, deviceId: device, deviceName: device, platform: 'android' },
    });
    expect(activated.ok(), await activated.text()).toBe(true);
    const removed = await page.request.delete(`${API}/licenses/${bought.userLicenseId}/devices/${device}`, { headers: bearer });
    expect(removed.ok(), await removed.text()).toBe(true);
  }

  // A support member from the test harness registers their passkey through the link.
  const seeded = await page.request.post(`${API}/test-harness/staff/members`, {
    headers: ADMIN_TOKEN,
    data: { email: `desk-${stamp}@example.com`, name: 'Desk', roles: ['support'] },
  });
  expect(seeded.ok(), await seeded.text()).toBe(true);
  const link = ((await seeded.json()).enrolmentLink as string).replace(/^http:\/\/127\.0\.0\.1:\d+\/admin/, ADMIN);
  const support = await staffBrowser(browser);
  const desk = support.page;
  await desk.goto(link);
  await desk.getByRole('button', { name: 'Register a passkey' }).click();
  await expect(desk.getByRole('search')).toBeVisible();

  // The open ads: the customer's report with its screenshot; support closes it, and it moves to the handled ones.
  await desk.getByRole('link', { name: 'Reports' }).click();
  await desk.getByLabel('Kind').selectOption('ad');
  const screenshot = desk.getByRole('img', { name: `Image 1: ${pageAddress}` });
  await expect(screenshot).toBeVisible();
  await expect.poll(() => screenshot.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(24);
  await desk.getByLabel('What was done').fill('added a rule for the banner');
  await desk.getByRole('button', { name: `Close as handled: ${pageAddress}` }).click();
  await expect(desk.getByRole('status').filter({ hasText: 'Done.' })).toBeVisible();
  await expect(desk.getByRole('button', { name: `Close as handled: ${pageAddress}` })).toHaveCount(0);
  await desk.getByLabel('State').selectOption('handled');
  await expect(desk.getByRole('cell', { name: 'Handled: added a rule for the banner' }).first()).toBeVisible();

  // The customer's page: the flagged key, the key mailed again, and a proof for every entry.
  await desk.getByRole('link', { name: 'Customers' }).click();
  await desk.getByPlaceholder(/licence key/).fill(bought.licenseKey);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: `Open ${customer}` }).click();
  const flags = desk.getByRole('region', { name: 'Flags' });
  await expect(flags.getByRole('alert')).toContainText(`${bought.licenseKey}: Key seen on 4 distinct devices within 7 days`);
  const timeline = desk.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('licence.Flagged — many distinct devices')).toBeVisible();

  await desk.getByLabel('Reason').fill('lost the purchase mail');
  await desk.getByRole('button', { name: `Resend the licence key ${bought.licenseKey}` }).click();
  await expect(desk.getByRole('status').filter({ hasText: 'Done.' })).toBeVisible();
  const keyMail = await waitForMail(customer, { match: (mail) => mail.subject.includes('라이선스 키 안내') });
  expect(keyMail.text).toContain(bought.licenseKey);

  const closing = timeline.getByRole('listitem').filter({ hasText: 'staff.Acted — added a rule for the banner' });
  const proofLink = closing.getByRole('link', { name: /^Proof #\d+$/ });
  const notificationId = Number((await proofLink.textContent())?.replace(/\D/g, ''));
  const [download] = await Promise.all([desk.waitForEvent('download'), proofLink.click()]);
  expect(download.suggestedFilename()).toBe(`proof-${notificationId}.json`);
  const proof = JSON.parse(await readFile((await download.path()) ?? '', 'utf8'));
  expect(proof.events[0].notification_id).toBe(notificationId);
  expect(JSON.parse(proof.events[0].record).topic).toBe('staff.Acted');
  expect(proof.checkpoint).toContain(`\n${proof.events[0].tree_size}\n`);
  await expect(timeline.getByRole('listitem').filter({ hasText: 'account.Registered' })).toContainText('no proof here');

  // The customer asks the money back; after a reload the licence page still says it was refunded, and a mail says so.
  const texts = ko.licences.moneyBack;
  await page.goto(`/ko/license/${bought.userLicenseId}`);
  await page.getByRole('button', { name: texts.ask }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: texts.confirmButton }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.refunded })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: texts.refunded })).toBeVisible();
  await expect(page.getByRole('button', { name: texts.ask })).toHaveCount(0);
  const refundMail = await waitForMail(customer, { match: (mail) => mail.text.includes(bought.merchantUid) && mail.subject.includes('환불') });
  expect(refundMail.text).toContain(bought.merchantUid);

  await support.context.close();
});
