/**
 * The back office in Chromium with virtual authenticators (WebAuthn over the DevTools protocol): the first owner
 * (from the command line) registers a passkey and invites support and finance, who register theirs; support finds
 * a customer by licence key, frees a device, resends the receipt and refunds part of a payment with a reason (a fresh passkey touch
 * first); a refund over the limit split in three waits at the third for finance (the limit weighs what the payment
 * was refunded in all), and the requester cannot approve it; a suspended member's
 * open session stops on their next click.
 *
 * Passkeys cannot belong to an IP address, so the back office is opened on localhost (api/staff_session.py).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { e2eVarDir } from '../playwright.config';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';
import { enrol, staffBrowser } from './staff';

const API = '/web/unicornpro/v1';
const port = Number(process.env.E2E_PORT ?? 8765);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test.skip(({ isMobile }) => isMobile, 'the back office is a desktop tool; one run is enough');

async function invite(owner: Page, email: string, role: string): Promise<string> {
  await owner.getByRole('link', { name: 'Staff' }).click();
  await owner.getByLabel('Email').fill(email);
  await owner.getByLabel('Name').fill(email.split('@')[0] ?? email);
  await owner.getByLabel('Roles').selectOption(role);
  await owner.getByRole('button', { name: 'Invite' }).click();
  // The link shown is the new member's (the form clears the previous one when it is sent).
  const link = owner.getByRole('link', { name: /\/admin\/enrol\?token=/ });
  await expect(owner.getByText(email)).toBeVisible();
  await expect(link).toBeVisible();
  return (await link.getAttribute('href')) ?? '';
}

test('owner, support and finance: passkeys, a customer helped, maker-checker, suspension', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();

  // A customer buys a licence (KRW) and uses it on a phone.
  const customer = `e2e-bo-customer-${stamp}@example.com`;
  await signUpAndLogIn(page, customer, 'customer2026pw');
  const login = await page.request.post(`${API}/auth/login`, { data: { email: customer, pw: 'customer2026pw' } });
  const { licenseKey: key, merchantUid } = await buyByCard(page.request, {
    email: customer,
    accessToken: (await login.json()).accessToken,
  });
  const device = `bo-phone-${stamp}`;
  const activated = await page.request.post(`${API}/licenses/activate`, {
    data: { licenseKey: key, deviceId: device, deviceName: 'Phone', platform: 'android' },
  });
  expect(activated.ok(), await activated.text()).toBe(true);

  // The first owner comes from the command line and registers a passkey through the printed link.
  const printed = execFileSync(
    path.join(repoRoot, '.venv', 'bin', 'python'),
    ['-m', 'workers.operator', 'staff', 'create-owner', `owner-${stamp}@example.com`, 'Owner'],
    { cwd: repoRoot, env: { ...process.env, APP_VAR_DIR: e2eVarDir, APP_ENV: 'test', APP_BASE_URL: `http://127.0.0.1:${port}` } },
  ).toString();
  const ownerLink = /http\S+\/admin\/enrol\?token=\S+/.exec(printed)?.[0] ?? '';
  const owner = await staffBrowser(browser);
  await enrol(owner.page, ownerLink);

  const support = await staffBrowser(browser);
  await enrol(support.page, await invite(owner.page, `support-${stamp}@example.com`, 'support'));
  const finance = await staffBrowser(browser);
  await enrol(finance.page, await invite(owner.page, `finance-${stamp}@example.com`, 'finance'));

  // Support finds the customer by licence key and frees the device.
  const desk = support.page;
  await desk.getByPlaceholder(/licence key/).fill(key);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: `Open ${customer}` }).click();
  await desk.getByLabel('Reason').fill('customer got a new phone');
  await desk.getByRole('button', { name: `Free the slot: ${device}` }).click();
  await expect(desk.getByRole('button', { name: `Free the slot: ${device}` })).toHaveCount(0);

  // Support sends the receipt again.
  await desk.getByRole('button', { name: `Resend the receipt ${merchantUid}` }).click();
  await expect(desk.getByRole('status').filter({ hasText: 'Done.' })).toHaveCount(2);

  // A refund above the approval limit (10,000원 here) split in three: the limit weighs what the payment was refunded
  // in all, so the first two are made at once and the third waits for a second member.
  await desk.getByLabel('Reason').fill('goodwill for an outage');
  await desk.getByLabel(`Amount ${merchantUid}`).fill('4000');
  // A partial refund says what it does to the licence, with the new end shown before anything moves.
  await expect(desk.getByTestId(`refund-preview-${merchantUid}`)).toContainText('Refund 4000 KRW');
  await expect(desk.getByRole('button', { name: `Refund ${merchantUid}`, exact: true })).toBeDisabled();
  await desk.getByRole('radio', { name: 'Keep it as it is' }).check();
  await desk.getByRole('button', { name: `Refund ${merchantUid}`, exact: true }).click();
  await expect(desk.getByText('Refunded: 4000')).toBeVisible();
  await expect(desk.getByTestId(`refund-preview-${merchantUid}`)).toContainText('Refundable 20360');
  await desk.getByRole('radio', { name: 'Keep it as it is' }).check();
  await desk.getByRole('button', { name: `Refund ${merchantUid}`, exact: true }).click();
  await expect(desk.getByTestId(`refund-preview-${merchantUid}`)).toContainText('Refundable 16360');

  // The third is over the limit in all: it waits for finance; the requester cannot approve it.
  await desk.getByLabel('Reason').fill('broken on every device');
  await desk.getByRole('radio', { name: 'Keep it as it is' }).check();
  await desk.getByRole('button', { name: `Refund ${merchantUid}`, exact: true }).click();
  await expect(desk.getByText('Waiting for approval')).toBeVisible();
  await desk.getByRole('link', { name: 'Refund requests' }).click();
  await desk.getByLabel('Reason').fill('approving my own');
  await desk.getByRole('button', { name: `Approve ${merchantUid}` }).click();
  await expect(desk.getByRole('alert')).toBeVisible();

  await finance.page.getByRole('link', { name: 'Refund requests' }).click();
  await finance.page.getByLabel('Reason').fill('checked the logs');
  await finance.page.getByRole('button', { name: `Approve ${merchantUid}` }).click();
  await expect(finance.page.getByRole('status')).toBeVisible();
  await expect(finance.page.getByRole('button', { name: `Approve ${merchantUid}` })).toHaveCount(0);

  // The timeline shows who did what, with the reasons.
  await desk.getByRole('link', { name: 'Customers' }).click();
  await desk.getByPlaceholder(/licence key/).fill(key);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: `Open ${customer}` }).click();
  const timeline = desk.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('staff.Acted — checked the logs')).toBeVisible();
  await expect(timeline.getByText('staff.Acted — goodwill for an outage')).toHaveCount(2);

  // The owner suspends support: support's next click ends at the sign-in page.
  await owner.page.getByRole('link', { name: 'Staff' }).click();
  await owner.page.getByRole('button', { name: `Suspend support-${stamp}@example.com` }).click();
  await expect(owner.page.getByText(`support-${stamp}@example.com — support — suspended`)).toBeVisible();
  await desk.getByRole('link', { name: 'Refund requests' }).click();
  await expect(desk.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  for (const member of [owner, support, finance]) await member.context.close();
});
