import { expect, test } from '../clients';
import { ko } from '../../src/i18n/ko';
import { API, PASSWORD, bearer } from '../exit';
import { waitForMail } from '../mail';
import { signUpAndLogIn } from '../members';
import { harnessMember } from '../staff';

/**
 * One price from page to charge (docs/catalogue.md): a Mac subscriber pays 4,900원 a month; marketing cuts the plan to
 * 4,400원 from an hour later. The licence page's next payment says 4,400원 at once, the reminder mail three days
 * before the renewal says 4,400원, and the renewal charges 4,400원. It moves the shared clock, so it runs in the
 * `time-travel` project, after the other tests; the plan (413) is no other story's.
 */

const ADMIN = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };
const PLAN = 413;
const CARD = { cardNumber: '4111111111111111', expiryYear: new Date().getFullYear() + 3, expiryMonth: 12, password: '12', birth: '900101' };

test('after a price cut the page, the reminder mail and the renewal charge agree', async ({ browser, page, request }, info) => {
  test.skip(info.project.name !== 'time-travel');
  test.setTimeout(180_000);
  const stamp = Date.now();
  const email = `e2e-one-price-${stamp}@example.com`;
  await signUpAndLogIn(page, email, PASSWORD);
  const started = await page.request.post(`${API}/payments/licenses/subscribe/new/new-billingkey`, {
    headers: await bearer(page, email),
    data: { licenseId: PLAN, card: CARD },
  });
  expect(started.ok(), await started.text()).toBe(true);
  const licence = String((await started.json()).userLicenseId);
  const section = page.getByRole('region', { name: ko.subscriptions.heading });
  await page.goto(`/ko/license/${licence}`);
  await expect(section.getByTestId('subscription-next-renewal-price')).toHaveText('4,900원');

  // Marketing schedules the cut in the back office: 4,900 -> 4,400 won, in force an hour from now.
  const { page: desk, context } = await harnessMember(browser, request, `pricing-${stamp}@example.com`, 'marketing');
  await desk.getByRole('link', { name: 'Catalogue' }).click();
  const form = desk.getByRole('form', { name: 'New version' });
  await form.getByLabel(`Price ${PLAN} KR`).fill('4400');
  await form.getByLabel('Reason').fill('cheaper Mac plan');
  await form.getByRole('button', { name: 'Schedule this version' }).click();
  await expect(desk.getByText('Scheduled version')).toBeVisible();
  await context.close();

  await page.reload();
  await expect(section.getByTestId('subscription-next-renewal-price')).toHaveText('4,400원');

  // Three days before the renewal: the reminder states the same price.
  const moved = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days: 27, seconds: 3600 } });
  expect(moved.ok()).toBe(true);
  const reminded = await request.post(`${API}/test-harness/reminders/run`, { headers: ADMIN });
  expect(reminded.ok()).toBe(true);
  const reminder = await waitForMail(email, { match: (mail) => mail.subject.includes('갱신') && mail.text.includes('4,400원') });
  expect(reminder.text).not.toContain('4,900원');

  // The renewal charges it.
  const due = await request.post(`${API}/test-harness/clock/advance`, { headers: ADMIN, data: { days: 3, seconds: 60 } });
  expect(due.ok()).toBe(true);
  const run = await request.post(`${API}/test-harness/renewals/run`, { headers: ADMIN });
  expect(run.ok()).toBe(true);
  const history = await page.request.get(`${API}/payments/licenses`, { headers: await bearer(page, email) });
  const renewals = ((await history.json()) as { purchaseType: string; amount: number; status: string }[]).filter(
    (record) => record.purchaseType === 'renewal' && record.status === 'paid',
  );
  expect(renewals.map((record) => record.amount)).toEqual([4400]);
});
