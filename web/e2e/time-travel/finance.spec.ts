/**
 * Finance's back office in Chromium (docs/finance.md). Payments are made today; a refund is made at PortOne behind
 * our back; the stack's test clock moves to 09:05 tomorrow in Korea, so today becomes "yesterday" and nothing can
 * be added to it any more. A finance member (passkey in a virtual authenticator, as in backoffice.spec.ts) then sees
 * beat's morning reconciliation with the planted mismatch and explains it; sees yesterday's revenue equal to the
 * sum of the payments in the log (read here from the stored records, without the app); opens a payment and
 * downloads its proof, which the independent Go verifier accepts; downloads the month-end pack, whose manifest's
 * SHA-256s match its files; and, after one byte of the log is changed behind the app's back, "verify now" raises
 * the alarm naming that event.
 *
 * It moves the shared clock and changes the log, so it runs in the `time-travel` project, after the other tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, test } from '../clients';
import { e2eVarDir } from '../../playwright.config';
import { buyByCard } from '../purchases';
import { harnessMember } from '../staff';

const API = '/web/unicornpro/v1';
const HARNESS = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const port = Number(process.env.E2E_PORT ?? 8765);
const SANDBOX = `http://127.0.0.1:${port + 1}`;
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const python = path.join(repoRoot, '.venv', 'bin', 'python');
const env = { ...process.env, APP_VAR_DIR: e2eVarDir, APP_ENV: 'test', APP_BASE_URL: `http://127.0.0.1:${port}` };

/** The log read without the app (e2e/finance-log.py). */
function fromTheLog(command: string, argument: string): string {
  return execFileSync(python, [path.join(here, '..', 'finance-log.py'), command, argument], { cwd: repoRoot, env }).toString();
}

/** A refund made in PortOne's own console: the gateway gives 500 back and we never hear of it. */
async function refundBehindOurBack(page: Page, merchantUid: string): Promise<void> {
  const token = await page.request.post(`${SANDBOX}/users/getToken`, {
    data: { imp_key: 'sandbox-imp-key', imp_secret: 'sandbox-imp-secret' },
  });
  const headers = { Authorization: (await token.json()).response.access_token as string };
  const found = await page.request.get(`${SANDBOX}/payments/find/${merchantUid}`, { headers });
  const { imp_uid: impUid, amount } = (await found.json()).response;
  const cancelled = await page.request.post(`${SANDBOX}/payments/cancel`, {
    headers,
    data: { imp_uid: impUid, amount: 500, checksum: amount, reason: 'refunded in the console' },
  });
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
  expect((await cancelled.json()).code, await cancelled.text()).toBe(0);
}

function kst(moment: Date): { day: string; month: string } {
  const shifted = new Date(moment.getTime() + 9 * 3600_000).toISOString();
  return { day: shifted.slice(0, 10), month: shifted.slice(0, 7) };
}

test('finance proves yesterday, reconciles the morning, downloads the close pack and is alarmed by a changed byte', async ({
  browser,
  page,
}, info) => {
  test.skip(info.project.name !== 'time-travel');
  test.setTimeout(360_000);
  const stamp = Date.now();

  // Two guests pay today; PortOne gives 500 of the second back without telling us.
  const first = await buyByCard(page.request, { email: `e2e-finance-a-${stamp}@example.com` });
  const second = await buyByCard(page.request, { email: `e2e-finance-b-${stamp}@example.com` });
  await refundBehindOurBack(page, second.merchantUid);

  // The night passes: to 09:05 tomorrow in Korea (the stack's clock).
  const now = await page.request.post(`${API}/test-harness/clock/advance`, { headers: HARNESS, data: { seconds: 1 } });
  const today = new Date((await now.json()).now);
  const { day, month } = kst(today);
  const morning = new Date(`${day}T09:05:00+09:00`).getTime() + 24 * 3600_000;
  const moved = await page.request.post(`${API}/test-harness/clock/advance`, {
    headers: HARNESS,
    data: { seconds: Math.ceil((morning - today.getTime()) / 1000) },
  });
  expect(moved.ok()).toBe(true);

  // A finance member (added by the test harness: create-owner works once per stack) registers a passkey.
  const finance = await harnessMember(browser, page.request, `finance-${stamp}@example.com`, 'finance');
  const desk = finance.page;

  // Beat's morning run of yesterday shows the refund PortOne made behind our back; finance explains it.
  await desk.getByRole('link', { name: 'Finance' }).click();
  await desk.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name: 'Reconciliation' }).click();
  const mismatch = `${second.merchantUid} cancel_amount`;
  await expect(async () => {
    await desk.reload();
    await expect(desk.getByRole('article', { name: day }).getByRole('button', { name: `Mark explained ${mismatch}` })).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 150_000, intervals: [3_000] });
  const run = desk.getByRole('article', { name: day });
  await expect(run.getByText('Every morning (beat)').first()).toBeVisible();
  await run.getByLabel(`Note ${mismatch}`).fill('refunded by phone; recorded by hand');
  await run.getByRole('button', { name: `Mark explained ${mismatch}` }).click();
  await expect(run.getByText('Explained: refunded by phone; recorded by hand')).toBeVisible();

  // The day's revenue is the sum of the payments the log holds for it. A payment's day is the gateway's paid_at,
  // on the sandbox's own clock: "yesterday" when this story runs first, earlier when other stories moved the
  // stack's clock ahead before it.
  const paidDay = fromTheLog('paid-day', first.merchantUid).trim();
  const inTheLog = JSON.parse(fromTheLog('revenue', paidDay)) as Record<string, number>;
  expect(inTheLog.KRW).toBeGreaterThan(0);
  await desk.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name: 'Revenue' }).click();
  await desk.getByLabel('From').fill(paidDay);
  const next = new Date(new Date(`${paidDay}T00:00:00Z`).getTime() + 24 * 3600_000).toISOString().slice(0, 10);
  await desk.getByLabel('Until (exclusive)').fill(next);
  await desk.getByRole('button', { name: 'Show' }).click();
  for (const [currency, amount] of Object.entries(inTheLog)) {
    await expect(desk.getByRole('button', { name: `Revenue ${paidDay} ${currency}`, exact: true })).toHaveAttribute('data-amount', String(amount));
  }
  await expect(desk.getByRole('img', { name: 'Revenue and refunds per period' })).toBeVisible();

  // The figure drills down to its payments; one opens with its events; its proof downloads and Go accepts it.
  await desk.getByRole('button', { name: `Revenue ${paidDay} KRW`, exact: true }).click();
  const behind = desk.getByRole('table', { name: 'Payments behind' });
  const amounts = await behind.locator('td[data-amount]').evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-amount'))));
  expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(inTheLog.KRW);
  await behind.getByRole('link', { name: `Open payment ${first.merchantUid}` }).click();
  await expect(desk.getByRole('table', { name: 'Events' }).getByText('payment.Ordered')).toBeVisible();
  // Its fields are labelled in the desk's language (the answer's own names are camelCase), each beside its value.
  const field = (label: string) => desk.locator('dl.finance-fields > div').filter({ has: desk.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  await expect(field('Buyer')).toHaveText(`e2e-finance-a-${stamp}@example.com`);
  await expect(field('List price')).toHaveText(/^\d+$/);
  const [proof] = await Promise.all([desk.waitForEvent('download'), desk.getByRole('link', { name: 'Download the proof of every event of this payment' }).click()]);
  const folder = mkdtempSync(path.join(tmpdir(), 'e2e-finance-'));
  const proofFile = path.join(folder, proof.suggestedFilename());
  await proof.saveAs(proofFile);
  const events = JSON.parse(fromTheLog('events', first.merchantUid)) as number[];
  const verdicts = fromTheLog('verify', proofFile).trim().split('\n');
  expect(verdicts).toEqual(events.map((id) => `ok event-${id}`));

  // The month-end close pack downloads; its manifest's SHA-256s are the files'.
  await desk.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name: 'Exports' }).click();
  await desk.getByLabel('Month', { exact: true }).fill(month);
  await desk.getByRole('button', { name: 'Make the pack' }).click();
  const zipLink = desk.getByRole('link', { name: `Download close-${month}.zip` }).first();
  await expect(zipLink).toBeVisible({ timeout: 60_000 });
  const [pack] = await Promise.all([desk.waitForEvent('download'), zipLink.click()]);
  const packFile = path.join(folder, pack.suggestedFilename());
  await pack.saveAs(packFile);
  const checked = execFileSync(python, [
    '-c',
    'import hashlib, json, sys, zipfile\n' +
      'z = zipfile.ZipFile(sys.argv[1]); m = json.loads(z.read("manifest.json"))\n' +
      'print(json.dumps({n: hashlib.sha256(z.read(n)).hexdigest() == f["sha256"] for n, f in m["files"].items()}))',
    packFile,
  ]).toString();
  expect(JSON.parse(checked)).toEqual({ 'ledger.csv': true, 'payments.csv': true, 'refunds.csv': true, 'checkpoint.txt': true });
  expect(readFileSync(packFile).length).toBeGreaterThan(0);

  // Asking for the pack is finance's own staff action, with what was asked for: who took which data out.
  await desk.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name: 'Staff actions' }).click();
  await desk.getByLabel('Action', { exact: true }).fill('finance-job');
  await desk.getByRole('button', { name: 'Filter' }).click();
  await expect(desk.getByRole('table', { name: 'Staff actions' }).getByRole('row').filter({ hasText: `kind: close-pack, month: ${month}` })).toHaveCount(1);

  // One byte of the first payment's order changes behind the app's back: verify now names that event.
  const [ordered] = events;
  fromTheLog('change-byte', String(ordered));
  await desk.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name: 'Integrity' }).click();
  await desk.getByRole('button', { name: 'Verify now' }).click();
  const alarm = desk.getByRole('alert').filter({ hasText: 'Alarm: the log failed verification' });
  await expect(alarm).toBeVisible({ timeout: 60_000 });
  await expect(alarm).toContainText(`first bad event: ${ordered}`);

  await finance.context.close();
});
