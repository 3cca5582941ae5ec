import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';
import { signUpAndLogIn } from './members';

/**
 * Buying a licence against the real stack: the purchase page orders, opens the PortOne sandbox's
 * window (a popup on port E2E_PORT + 1), and confirms what the window reports.
 */

const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;
const API = '/web/unicornpro/v1';
const SANDBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;
const PASSWORD = 'unicorn2026';

function guestEmail(project: string): string {
  return `e2e-buyer-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Fills the guest's order on /ko/purchase for the default choice (annual Android Pro, 1 device). */
async function fillGuestOrder(page: Page, email: string) {
  await page.goto('/ko/purchase');
  await expect(page.getByRole('heading', { level: 1, name: ko.purchase.heading })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Android Pro' })).toBeChecked();
  await expect(page.getByRole('radio', { name: new RegExp(ko.purchase.periods.annual) })).toBeChecked();
  await expect(page.getByRole('radio', { name: new RegExp('기기 1대') })).toBeChecked();
  await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(ko.purchase.agreeAll).check();
}

/** Clicks Pay and gives back the sandbox's window. */
async function pay(page: Page, amount = '24,360원') {
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: `${amount} 결제하기` }).click();
  const window = await popup;
  await expect(window.getByRole('heading', { name: 'PortOne sandbox' })).toBeVisible();
  return window;
}

/** The page's layout shifts so far (shifts right after input excluded, as browsers count them). */
interface Shifts {
  total: number;
  /** What moved, for the failure message: each shift's value and the elements it moved. */
  moved: string[];
}

function layoutShift(page: Page): Promise<Shifts> {
  return page.evaluate(
    () =>
      new Promise<Shifts>((resolve) => {
        const shifts: Shifts = { total: 0, moved: [] };
        type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] };
        const named = (node: Node | null | undefined) =>
          node instanceof Element ? [node.tagName.toLowerCase(), ...Array.from(node.classList)].join('.') : String(node);
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) {
            if (entry.hadRecentInput) continue;
            shifts.total += entry.value;
            const sources = entry.sources.map(
              (source) => `${named(source.node)} y ${source.previousRect.y} -> ${source.currentRect.y}`,
            );
            shifts.moved.push(`${entry.value.toFixed(3)} at ${entry.startTime.toFixed(0)} ms: ${sources.join('; ')}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(shifts), 500);
      }),
  );
}

/**
 * Holds every request to `url` until the returned function is called, so that the page shows its loading view
 * (and its lazy footer settles) before the answer arrives, whatever the machine's speed.
 */
async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the licence page does not shift its layout while the list loads', async ({ page }, info) => {
  await signUpAndLogIn(page, guestEmail(info.project.name), PASSWORD);
  const releaseList = await holdRequests(page, `**${API}/licenses/mine*`);
  await page.goto('/ko/license');
  await expect(page.getByRole('contentinfo')).toContainText('유니콘 주식회사');
  releaseList();
  // A new member has no licence yet: the empty list's card replaces the loading view.
  await expect(page.getByText(ko.licences.empty)).toBeVisible();
  await expect(page.getByRole('button', { name: ko.licences.register.submit })).toBeVisible();
  const shifts = await layoutShift(page);
  expect(shifts.total, shifts.moved.join('\n')).toBeLessThan(0.01);
});

test.describe('purchase page', () => {
  test('does not shift its layout while the plans load', async ({ page }) => {
    // The plans are held until the loading view and the lazy footer have settled, then the form replaces them.
    const releasePlans = await holdRequests(page, `**${API}/purchasable-licenses/**`);
    await page.goto('/ko/purchase');
    await expect(page.getByRole('contentinfo')).toContainText('유니콘 주식회사');
    releasePlans();
    // Then the order's code loads: more than the default 5 s on a slow machine.
    await expect(page.getByRole('radio', { name: 'Android Pro' })).toBeChecked({ timeout: 15_000 });
    const shifts = await layoutShift(page);
    expect(shifts.total, shifts.moved.join('\n')).toBeLessThan(0.01);
  });

  test('shows the annual Android Pro licence in won, and asks for the agreements and the email', async ({ page }) => {
    await page.goto('/ko/purchase');
    await expect(page.getByRole('radio', { name: /연간 구독/ })).toBeChecked();
    const summary = page.getByRole('complementary', { name: ko.purchase.summaryHeading });
    await expect(summary.getByText('유니콘 프로 안드로이드 1년 구독 (1대)', { exact: true })).toBeVisible();
    await expect(summary.getByText('34,800원')).toBeVisible();
    await expect(summary.getByText('24,360원', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: '24,360원 결제하기' }).click();
    await expect(page.getByText(ko.purchase.validation.emailExact)).toBeVisible();
    await expect(page.getByText(ko.purchase.validation.agreements)).toBeVisible();
    await page.getByLabel(ko.purchase.emailLabel, { exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: '24,360원 결제하기' }).click();
    await expect(page.getByText(ko.purchase.validation.email)).toBeVisible();

    // Another period and device count change the price.
    await page.getByRole('radio', { name: /평생 이용권/ }).check();
    await expect(page.getByRole('button', { name: '59,000원 결제하기' })).toBeVisible();
    await page.getByRole('radio', { name: 'Windows Pro' }).check();
    await page.getByRole('radio', { name: /월간 구독/ }).check();
    await page.getByRole('radio', { name: /기기 3대/ }).check();
    await expect(summary.getByText('유니콘 프로 윈도우 1개월 구독 (3대)', { exact: true })).toBeVisible();
  });

  test('prices do not follow the language: a visitor from Korea pays in won in English too', async ({ page }) => {
    await page.goto('/en/purchase');
    await expect(page.getByRole('radio', { name: /Annual subscription/ })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Pay 24,360 KRW' })).toBeVisible();
  });
});

test.describe('buying as a guest', () => {
  test('a guest buys an annual Android Pro licence and sees its key', async ({ page }, info) => {
    test.setTimeout(60_000);
    await fillGuestOrder(page, guestEmail(info.project.name));
    const window = await pay(page);
    await window.getByRole('button', { name: 'Approve' }).click();

    await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.heading })).toBeVisible();
    await expect(page.getByText(ko.payments.confirm.paid)).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
  });

  test('closing the window stops the payment (STOP)', async ({ page }, info) => {
    test.setTimeout(60_000);
    await fillGuestOrder(page, guestEmail(info.project.name));
    const window = await pay(page);
    await window.getByRole('button', { name: 'Close' }).click();

    await expect(page).toHaveURL(/\/ko\/payment\/121\?errorCode=STOP$/);
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.failure.heading })).toBeVisible();
    await expect(page.getByText(ko.payments.errorCodes.STOP)).toBeVisible();

    // Trying again comes back to the same licence.
    await page.getByRole('link', { name: ko.payments.failure.retry }).click();
    await expect(page.getByRole('radio', { name: /연간 구독/ })).toBeChecked();
  });

  test('a declined card lands on the failure page (-300)', async ({ page }, info) => {
    test.setTimeout(60_000);
    await fillGuestOrder(page, guestEmail(info.project.name));
    const window = await pay(page);
    await window.getByRole('button', { name: 'Decline' }).click();

    await expect(page).toHaveURL(/\/ko\/payment\/121\?errorCode=-300$/);
    await expect(page.getByText(ko.payments.errorCodes['-300'])).toBeVisible();
  });

  test('a virtual account shows the account number and the deadline', async ({ page }, info) => {
    test.setTimeout(60_000);
    await fillGuestOrder(page, guestEmail(info.project.name));
    await page.getByRole('radio', { name: ko.purchase.methods.virtualAccount }).check();
    const window = await pay(page);
    await window.getByRole('button', { name: 'Issue virtual account' }).click();

    await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
    await expect(page.getByText(ko.payments.confirm.reserved)).toBeVisible();
    await expect(page.getByTestId('vbank-num')).toHaveText(/\d/);
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.reservedHeading })).toBeVisible();
    await expect(page.getByText(ko.payments.confirm.vbankDate, { exact: true })).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
  });
});

/** What the sandbox's window would do for an order: pays it and gives back the callback object. */
async function payInSandbox(request: APIRequestContext, order: Record<string, unknown>, action = 'approve') {
  const response = await request.post(`${SANDBOX}/sandbox/checkout`, {
    data: {
      pg: order.pg,
      pay_method: order.payMethod,
      merchant_uid: order.merchantUid,
      name: order.name,
      amount: order.amount,
      currency: order.currency,
      buyer_email: order.buyerEmail,
      action,
    },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { imp_uid: string; merchant_uid: string; success: boolean };
}

test.describe('the gateway redirect return (mobile flow)', () => {
  test('confirms the payment named in the query and shows its key', async ({ page }, info) => {
    const ordered = await page.request.post(`${API}/payments/licenses/new`, {
      data: { licenseId: 121, countryCode: 'KR', paymentMethod: 'creditCard', email: guestEmail(info.project.name) },
    });
    expect(ordered.ok()).toBe(true);
    const paid = await payInSandbox(page.request, await ordered.json());
    await page.goto(`/ko/payment/confirm?imp_uid=${paid.imp_uid}&merchant_uid=${paid.merchant_uid}&imp_success=true`);
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
    // The gateway's query is dropped, so that a reload does not confirm again.
    await expect(page).toHaveURL(/\/ko\/payment\/confirm$/);
  });

  test('shows why a refused payment failed', async ({ page }, info) => {
    const ordered = await page.request.post(`${API}/payments/licenses/new`, {
      data: { licenseId: 121, countryCode: 'KR', paymentMethod: 'creditCard', email: guestEmail(info.project.name) },
    });
    const order = await ordered.json();
    await page.goto(
      `/ko/payment/confirm?imp_uid=&merchant_uid=${order.merchantUid}&imp_success=false&error_code=CARD_DECLINED&error_msg=card%20declined`,
    );
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.failure.heading })).toBeVisible();
    await expect(page.getByText(ko.payments.errorCodes['-300'])).toBeVisible();
  });
});

test.describe('a customer with an account', () => {
  // One run is enough: the backend limits mails per client.
  test.skip(({ isMobile }) => isMobile, 'runs in the desktop project only');

  test('buys while logged in, manages the licence and its devices, and reads the purchase history', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const email = guestEmail(`${info.project.name}-member`);

    // An account registered and confirmed through its mail, then logged in (cookies shared with the page).
    await signUpAndLogIn(page, email, PASSWORD);

    // Logged in, the page asks for no email.
    await page.goto('/ko/purchase');
    await expect(page.getByText(`${email} 계정으로 구매합니다.`)).toBeVisible();
    await expect(page.getByLabel(ko.purchase.emailLabel, { exact: true })).toHaveCount(0);
    await page.getByLabel(ko.purchase.agreeAll).check();
    const window = await pay(page);
    await window.getByRole('button', { name: 'Approve' }).click();
    const key = (await page.getByTestId('license-key').textContent())?.trim() ?? '';
    expect(key).toMatch(KEY_SHAPE);

    // The licence list shows it with its period.
    await page.getByRole('link', { name: ko.payments.confirm.goLicences }).click();
    await expect(page.getByRole('heading', { level: 1, name: ko.licences.heading })).toBeVisible();
    const item = page.getByRole('listitem').filter({ hasText: key });
    await expect(item.getByRole('link', { name: '유니콘 프로 안드로이드 1년 구독 (1대)' })).toBeVisible();
    await expect(item.getByText(/^\d{4}-\d{2}-\d{2} ~ \d{4}-\d{2}-\d{2}$/)).toBeVisible();

    // An app activates a device; the detail page renames and removes it.
    const activated = await page.request.post(`${API}/licenses/activate`, {
      data: { licenseKey: key, deviceId: `e2e-${Date.now()}`, deviceName: 'Galaxy', platform: 'android' },
    });
    expect(activated.ok()).toBe(true);
    await item.getByRole('link', { name: '유니콘 프로 안드로이드 1년 구독 (1대)' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '유니콘 프로 안드로이드 1년 구독 (1대)' })).toBeVisible();
    await expect(page.locator('.licence-device__name', { hasText: /^Galaxy$/ })).toBeVisible();
    // Its platform and when its app was last seen (the activation, until it validates a day later).
    await expect(page.locator('.licence-device .hint', { hasText: /^Android$/ })).toBeVisible();
    await expect(page.locator('.licence-device__last-seen')).toHaveText(/^마지막 확인 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await page.getByRole('button', { name: `${ko.licences.rename} Galaxy` }).click();
    await page.getByLabel(ko.licences.renameLabel).fill('My Galaxy');
    await page.getByRole('button', { name: ko.licences.save }).click();
    await expect(page.getByText(ko.licences.renamed)).toBeVisible();
    await expect(page.locator('.licence-device__name', { hasText: /^My Galaxy$/ })).toBeVisible();
    await page.getByRole('button', { name: `${ko.licences.remove} My Galaxy` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: ko.licences.remove }).click();
    await expect(page.getByText(ko.licences.removed)).toBeVisible();
    await expect(page.getByText(ko.licences.noDevices)).toBeVisible();

    // The purchase history lists the payment; its detail shows the record.
    await page.goto('/ko/purchase-history');
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.history.heading })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: '유니콘 프로 안드로이드 1년 구독 (1대)' });
    await expect(row.getByText('24,360원')).toBeVisible();
    await expect(row.getByText(ko.payments.statuses.paid)).toBeVisible();
    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: '유니콘 프로 안드로이드 1년 구독 (1대)' })).toBeVisible();
    await expect(page.getByText(ko.payments.history.merchantUid)).toBeVisible();
    await expect(page.getByText('34,800원')).toBeVisible();

    // Registering an unknown key shows the reason under the field.
    await page.goto('/ko/license');
    await page.getByLabel(ko.licences.register.label, { exact: true }).fill('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    await page.getByRole('button', { name: ko.licences.register.submit }).click();
    await expect(page.locator('#licence-key-error')).toBeVisible();

    // The open beta: once per account.
    await page.getByRole('button', { name: ko.licences.openBeta.join }).click();
    await expect(page.getByText(ko.licences.openBeta.joined)).toBeVisible();
    await page.getByRole('button', { name: ko.licences.openBeta.join }).click();
    await expect(page.getByRole('alertdialog').getByText(ko.payments.errorCodes['-114'])).toBeVisible();

    // A monthly subscription with automatic payment: the card typed here becomes a billing key.
    await page.goto('/ko/purchase');
    await page.getByRole('radio', { name: /월간 구독/ }).check();
    await page.getByLabel(ko.purchase.autoRenew).check();
    await expect(page.getByRole('radio', { name: ko.purchase.methods.creditCard })).toBeChecked();
    await expect(page.getByRole('radio', { name: ko.purchase.methods.virtualAccount })).toHaveCount(0);
    await page.getByLabel(ko.purchase.agreeAll).check();
    // Issue 29, finding 6: a number typed with dashes is fine; each missing field says what it needs.
    await page.getByLabel(ko.purchase.card.number).fill('4111-1111-1111-1111');
    await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
    for (const message of ['expiryMonth', 'cardPassword', 'birth'] as const) {
      await expect(page.getByText(ko.purchase.validation[message])).toBeVisible();
    }
    await expect(page.getByText(ko.purchase.validation.cardNumber)).toHaveCount(0);
    await expect(page.getByText(ko.purchase.validation.required)).toHaveCount(0);
    await page.getByLabel(ko.purchase.card.number).fill('4111 1111 111');
    await page.getByLabel(ko.purchase.card.birth).fill('9001');
    await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
    await expect(page.getByText(ko.purchase.validation.cardNumber)).toBeVisible();
    await page.getByLabel(ko.purchase.card.number).fill('4111 1111 1111 1111');
    await page.getByLabel(ko.purchase.card.month, { exact: true }).selectOption('12');
    await page.getByLabel(ko.purchase.card.year, { exact: true }).selectOption(String(new Date().getFullYear() + 3));
    await page.getByLabel(ko.purchase.card.password).fill('12');
    await page.getByLabel(ko.purchase.card.birth).fill('900101');
    await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
    await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.subscribedHeading })).toBeVisible();
    await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
    await expect(page.getByTestId('next-payment')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });
});
