import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { EXIT_TEXT } from '../src/features/subscriptions/exitText';
import { API, bearer, monthlySubscriber } from './exit';
import { waitForMail } from './mail';

/**
 * The honest exit on the licence page (docs/subscriptions.md): stopping auto-renewal asks why, optionally, in the
 * same dialog that shows the one retention offer. One subscriber answers, declines the offer by stopping, and is not
 * asked again; the mail says until when the licence works. Another takes the offer: auto-renewal stays on and the
 * next renewal's price is the coupon's (the renewal itself is charged in e2e/time-travel/exit-renewal.spec.ts).
 */

const exit = EXIT_TEXT.ko;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

test.describe('leaving subscribers', () => {
  // One run is enough: the backend limits mails per client.
  test.skip(({ isMobile }) => isMobile, 'runs in the desktop project only');

  test('one answers why, declines the one offer by stopping, sees no second prompt and gets the mail', async ({ page }, info) => {
    test.setTimeout(120_000);
    const email = `e2e-exit-leave-${info.project.name}-${Date.now()}@example.com`;
    const licence = await monthlySubscriber(page, email);
    await page.goto(`/ko/license/${licence}`);
    const section = page.getByRole('region', { name: ko.subscriptions.heading });
    await section.getByRole('button', { name: ko.subscriptions.cancel }).click();

    // One dialog: what stopping means, the optional question, the one offer, and two buttons that say what they do.
    const dialog = page.getByRole('alertdialog', { name: exit.title });
    await expect(dialog).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}까지 사용할 수 있고/);
    const offer = dialog.getByRole('region', { name: exit.offerHeading });
    await expect(offer).toContainText('2,030원');
    await expect(offer).toContainText('2,900원');
    await expect(dialog.getByRole('button', { name: ko.subscriptions.keepRenewing })).toBeVisible();
    await expect(dialog.getByRole('button', { name: ko.common.cancel, exact: true })).toHaveCount(0);
    await dialog.getByRole('checkbox', { name: exit.reasons['too-expensive'] }).check();
    await dialog.getByRole('checkbox', { name: exit.reasons['not-using'] }).check();
    await dialog.getByLabel(exit.comment).fill('한 달에 한 번만 써요');
    await dialog.getByRole('button', { name: ko.subscriptions.cancel, exact: true }).click();

    // Declining was the stop: no second prompt, auto-renewal is off.
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.cancelled);
    await expect(section.getByTestId('subscription-paid-until')).toHaveText(DATE_TIME);
    await expect(section.getByRole('button', { name: ko.subscriptions.cancel })).toHaveCount(0);

    // The offer was declined once and for all, and the answers are recorded.
    const headers = await bearer(page, email);
    const asked = await page.request.get(`${API}/payments/licenses/subscribe/${licence}/exit`, { headers });
    expect((await asked.json()).offer).toBeNull();

    const mail = await waitForMail(email, { match: (found) => found.text.includes('자동 갱신이 해지되었습니다') });
    expect(mail.text).toMatch(/라이선스는 \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\+9\)까지 사용하실 수 있습니다/);
    expect(mail.text).toContain(`/ko/license/${licence}?subscription=resume`);
  });

  test('another takes the offer: auto-renewal stays on and the next renewal costs the coupon price', async ({ page }, info) => {
    test.setTimeout(120_000);
    const email = `e2e-exit-stay-${info.project.name}-${Date.now()}@example.com`;
    const licence = await monthlySubscriber(page, email);
    // The reminder's link opens the dialog.
    await page.goto(`/ko/license/${licence}?subscription=stop`);
    const dialog = page.getByRole('alertdialog', { name: exit.title });
    await dialog.getByRole('checkbox', { name: exit.reasons['too-expensive'] }).check();
    await dialog.getByRole('button', { name: exit.accept.replace('{percent}', '30') }).click();

    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    const section = page.getByRole('region', { name: ko.subscriptions.heading });
    await expect(section.getByText(/다음 갱신은 30% 할인된 2,030원에 결제됩니다/)).toBeVisible();
    await expect(section.getByTestId('subscription-auto-renewal')).toHaveText(ko.subscriptions.statuses.active);
    await expect(section.getByTestId('subscription-next-renewal-price')).toHaveText('2,030원');

    const state = await page.request.get(`${API}/payments/licenses/subscribe/${licence}`, { headers: await bearer(page, email) });
    expect(await state.json()).toMatchObject({ status: 'active', price: 2900, nextRenewalPrice: 2030 });
  });
});
