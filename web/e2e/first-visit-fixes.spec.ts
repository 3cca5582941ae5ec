import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './clients';
import { format } from '../src/i18n/catalogues';
import { en } from '../src/i18n/en';
import { ko } from '../src/i18n/ko';
import { waitForMail } from './mail';
import { signUpAndLogIn } from './members';
import { buyByCard } from './purchases';

/**
 * Issue 29, what was left of a first-time customer's walk through the store, each story at the width and in the
 * language it was seen in: the upgrade page (finding 10), the apps' download links (11), the register page a guest's
 * receipt opens (9) and the small things of 16 (the key field's placeholder, a payment method's name under its radio,
 * the subscription heading against the card above, a status line left in English after a language switch, the
 * product's name in mails).
 */

const API = '/web/unicornpro/v1';
const PASSWORD = 'unicorn2026';
const KEY_SHAPE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;
type Platform = 'android' | 'ios' | 'mac' | 'windows';
const PLATFORMS: Platform[] = ['android', 'ios', 'mac', 'windows'];

test.beforeEach(async ({ page, isMobile }) => {
  // The walk's desktop was 1280x800 (the project's default is 1280x720); its phone 375x812, the project's own.
  if (!isMobile) await page.setViewportSize({ width: 1280, height: 800 });
});

function address(kind: string, project: string): string {
  return `e2e-first-${kind}-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Words inside `root` that the layout broke across two lines ("업그레이/드", "보/기"): runs of letters and digits, since
 * a line may break at a space, a hyphen or before a bracket ("신용카드/(으)로").
 */
function wordsBrokenInside(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const word = /[\p{L}\p{N}]+/gu;
      for (let found = word.exec(text); found; found = word.exec(text)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const lines = new Set(
          Array.from(range.getClientRects())
            .filter((rect) => rect.width > 0)
            .map((rect) => Math.round(rect.top)),
        );
        if (lines.size > 1) broken.push(found[0]);
      }
    }
    return broken;
  });
}

/** Subscribes monthly with a card typed on the purchase page; the licence key. */
async function subscribeMonthly(page: Page): Promise<string> {
  await page.goto('/ko/purchase');
  await page.getByRole('radio', { name: /월간 구독/ }).check();
  await page.getByLabel(ko.purchase.autoRenew).check();
  await page.getByRole('radio', { name: ko.purchase.methods.creditCard }).check();
  await page.getByLabel(ko.purchase.card.number).fill('4111111111111111');
  await page.getByLabel(ko.purchase.card.month, { exact: true }).selectOption('12');
  await page.getByLabel(ko.purchase.card.year, { exact: true }).selectOption(String(new Date().getFullYear() + 3));
  await page.getByLabel(ko.purchase.card.password).fill('12');
  await page.getByLabel(ko.purchase.card.birth).fill('900101');
  await page.getByLabel(ko.purchase.agreeAll).check();
  await page.getByRole('button', { name: '2,900원 구독 시작하기' }).click();
  const key = (await page.getByTestId('license-key').textContent())?.trim() ?? '';
  expect(key).toMatch(KEY_SHAPE);
  return key;
}

/** The deployment's download addresses, as the web app reads them. */
async function downloads(page: Page): Promise<Record<Platform, string>> {
  const answer = await page.request.get(`${API}/integrations/settings`);
  expect(answer.ok()).toBe(true);
  const { downloads: addresses } = (await answer.json()) as { downloads: Record<Platform, string> };
  for (const platform of PLATFORMS) expect(addresses[platform]).toMatch(/^https:\/\//);
  return addresses;
}

/** The download section's links, by platform. */
async function expectDownloadLinks(page: Page, addresses: Record<Platform, string>) {
  const section = page.getByRole('region', { name: ko.downloads.heading });
  await expect(section).toBeVisible();
  for (const platform of PLATFORMS) {
    const name = format(ko.downloads.label, { platform: ko.downloads.platforms[platform] });
    await expect(section.getByRole('link', { name })).toHaveAttribute('href', addresses[platform]);
  }
}

test('the upgrade page names each period with its price, shows the credit once and has one pay button', async ({
  page,
}, info) => {
  // Finding 10 (seen in Korean, on both widths) and, on the way, 16's "구독" heading touching the card above it.
  test.setTimeout(120_000);
  await signUpAndLogIn(page, address('upgrade', info.project.name), PASSWORD);
  const key = await subscribeMonthly(page);

  await page.goto('/ko/license');
  await page.getByRole('listitem').filter({ hasText: key }).getByRole('link').first().click();
  const subscriptionHeading = page.getByRole('heading', { level: 2, name: ko.subscriptions.heading, exact: true });
  await expect(subscriptionHeading).toBeVisible();
  const gap = await subscriptionHeading.evaluate((heading) => {
    const section = heading.closest('section');
    const above = section?.previousElementSibling;
    return above ? heading.getBoundingClientRect().top - above.getBoundingClientRect().bottom : Infinity;
  });
  expect(gap).toBeGreaterThanOrEqual(16);

  await page.getByRole('link', { name: ko.upgrades.heading }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.upgrades.heading })).toBeVisible();
  const periods = page.getByRole('group', { name: ko.upgrades.life });
  const periodNames = [ko.purchase.periods.monthly, ko.purchase.periods.annual, ko.purchase.periods.lifetime];
  const radios = periods.getByRole('radio');
  await expect(radios.first()).toBeVisible();
  for (const radio of await radios.all()) {
    // "연간 구독 38,261원", not "2026.11.26 ~ 2027.11.26" or a bare "평생".
    const name = await radio.evaluate((input) => input.closest('label')?.textContent?.trim() ?? '');
    expect(name).toMatch(new RegExp(`^(${periodNames.join('|')})\\s*[\\d,]+원$`));
  }
  await expect(periods).not.toContainText('~');

  // The credit once, as an amount of its own; the discount line holds the percentages only.
  const summary = page.locator('.upgrade__summary');
  await expect(page.getByTestId('upgrade-discount')).toHaveText('30%');
  const credit = ((await page.getByTestId('upgrade-remaining').textContent()) ?? '').trim();
  expect(credit).toMatch(/^-2,[89]\d\d원$/);
  const summaryText = (await summary.textContent()) ?? '';
  expect(summaryText.split(credit.slice(1)).length - 1).toBe(1);

  // One pay button, whatever the way to pay; its words never broken inside themselves.
  const pay = page.getByRole('button', { name: /결제하고 업그레이드$/ });
  await expect(pay).toHaveCount(1);
  await expect(pay).toHaveText(/^현재 카드로 [\d,]+원 결제하고 업그레이드$/);
  expect(await wordsBrokenInside(pay)).toEqual([]);
  await page.getByRole('radio', { name: ko.upgrades.payChoices.typedCard }).check();
  await expect(page.getByLabel(ko.purchase.card.number)).toBeVisible();
  await expect(pay).toHaveCount(1);
  await expect(pay).toHaveText(/^입력한 카드로 [\d,]+원 결제하고 업그레이드$/);
  await page.getByRole('radio', { name: format(ko.upgrades.payChoices.keyWindow, { method: ko.purchase.methods.kakaopay }) }).check();
  await expect(page.getByLabel(ko.purchase.card.number)).toHaveCount(0);
  await expect(pay).toHaveText(format(ko.upgrades.payKeyWindow, { method: ko.purchase.methods.kakaopay }));
  expect(await wordsBrokenInside(page.locator('.upgrade'))).toEqual([]);
});

test('the apps are a link away: on the licence page, behind the menu products and after paying', async ({ page }, info) => {
  // Finding 11, seen in Korean. The menu and the payment window are the desktop's; the licence page on both widths.
  test.setTimeout(120_000);
  const addresses = await downloads(page);
  expect(new Set(Object.values(addresses)).size).toBe(4);
  await signUpAndLogIn(page, address('apps', info.project.name), PASSWORD);
  await page.goto('/ko/license');
  await expect(page.getByRole('heading', { level: 1, name: ko.licences.heading })).toBeVisible();
  await expectDownloadLinks(page, addresses);
  if (info.project.name !== 'desktop-chromium') return;

  // Each of the menu's four products goes to its own app, none to the licence list.
  await page.getByRole('button', { name: ko.header.myAccount }).click();
  await page.getByRole('button', { name: ko.menu.products }).click();
  for (const platform of PLATFORMS) {
    await expect(page.getByRole('link', { name: ko.menu.productNames[platform] })).toHaveAttribute('href', addresses[platform]);
  }
  await page.getByRole('button', { name: ko.header.myAccount }).click();

  await page.goto('/ko/purchase');
  await page.getByLabel(ko.purchase.agreeAll).check();
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: '24,360원 결제하기' }).click();
  await (await popup).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 1, name: ko.payments.confirm.heading })).toBeVisible();
  await expect(page.getByTestId('license-key')).toHaveText(KEY_SHAPE);
  await expectDownloadLinks(page, addresses);
});

test("the register page of a guest's receipt names the licence and does not ask for the agreements again", async ({
  page,
  request,
}, info) => {
  // Finding 9's second half, and 16's one name for the product in mails; seen in Korean.
  test.skip(info.project.name !== 'desktop-chromium', 'one run is enough: the page reads the same on a phone');
  test.setTimeout(120_000);
  const email = address('receipt', info.project.name);
  const { licenseKey } = await buyByCard(request, { email });
  const receipt = await waitForMail(email, { match: (mail) => mail.text.includes('userLicenseKey=') });
  expect(receipt.subject).toMatch(new RegExp(`^\\[${ko.meta.brand}\\] `));
  expect(receipt.text).not.toContain('AdBlock');
  const registerLink = /https?:\/\/\S+\/register\?\S+/.exec(receipt.text)?.[0] ?? '';
  await page.goto(registerLink);

  await expect(page.getByRole('heading', { level: 1, name: ko.auth.register.fromReceipt.heading })).toBeVisible();
  await expect(page.getByTestId('register-licence-note')).toHaveText(
    format(ko.auth.register.fromReceipt.lead, { key: licenseKey, email }),
  );
  await expect(page.getByRole('checkbox', { name: ko.auth.register.agreeAll })).toHaveCount(0);
  const given = page.getByTestId('register-agreements-given');
  await expect(given).toContainText(ko.auth.register.fromReceipt.agreed);
  await expect(given.getByRole('link', { name: ko.auth.register.documents.termsOfUse })).toHaveAttribute('href', '/ko/terms/service');
  // The optional marketing consent is the purchase's no more than before: still offered, unticked.
  await expect(page.getByRole('checkbox', { name: ko.auth.register.marketing })).not.toBeChecked();

  await page.getByLabel(ko.auth.fields.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(ko.auth.fields.passwordConfirm, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: ko.auth.register.fromReceipt.submit }).click();
  await expect(page).toHaveURL(/\/ko\/license\?userLicenseKey=/, { timeout: 15_000 });
  await expect(page.getByRole('listitem').filter({ hasText: licenseKey })).toBeVisible();

  // Registering any other way still asks for them.
  await page.goto('/ko/register');
  await expect(page.getByRole('checkbox', { name: ko.auth.register.agreeAll })).toBeVisible();
});

test("the licence key field's placeholder is whole on a phone", async ({ page }, info) => {
  // Finding 16, seen on a phone in Korean; the desktop keeps it whole too.
  await signUpAndLogIn(page, address('key', info.project.name), PASSWORD);
  await page.goto('/ko/license');
  const field = page.getByLabel(ko.licences.register.label, { exact: true });
  await expect(field).toBeEnabled();
  await expect(field).toHaveAttribute('placeholder', ko.licences.register.placeholder);
  const room = await field.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const text = context.measureText(input.placeholder).width;
    const inside = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return inside - text;
  });
  expect(room).toBeGreaterThanOrEqual(0);
});

test('a payment method\'s name sits beside its radio, not under it', async ({ page }) => {
  // Finding 16: "Real-time bank transfer" sat under its radio, seen in English.
  await page.goto('/en/purchase');
  const option = page.locator('label.purchase-option').filter({ hasText: en.purchase.methods.bankTransfer });
  await expect(option).toBeVisible();
  const radio = await option.locator('input').boundingBox();
  const name = await option.locator('.purchase-option__name').boundingBox();
  expect(radio && name).toBeTruthy();
  expect(radio!.x + radio!.width).toBeLessThanOrEqual(name!.x);
  const middle = radio!.y + radio!.height / 2;
  expect(middle).toBeGreaterThanOrEqual(name!.y);
  expect(middle).toBeLessThanOrEqual(name!.y + name!.height);
  expect(await wordsBrokenInside(page.locator('.purchase__options--methods'))).toEqual([]);
});

test('switching language leaves no status line in the old one', async ({ page }, info) => {
  // Finding 16: after a switch from English to Korean an English status line stayed on the account page.
  test.skip(info.project.name !== 'desktop-chromium', 'one run is enough: mails are limited per client');
  const email = address('switch', info.project.name);
  await signUpAndLogIn(page, email, PASSWORD);
  await page.goto('/en/account');
  const passwordChange = page.getByRole('region', { name: en.account.passwordChange.heading });
  await passwordChange.getByLabel(en.account.passwordChange.current, { exact: true }).fill(PASSWORD);
  await passwordChange.getByRole('button', { name: en.account.passwordChange.submit }).click();
  const sent = format(en.account.passwordChange.sent, { email });
  await expect(page.getByRole('status').filter({ hasText: sent })).toBeVisible();

  await page.getByRole('navigation', { name: en.footer.languageLabel }).getByRole('link', { name: '한국어' }).click();
  await expect(page).toHaveURL(/\/ko\/account$/);
  await expect(page.getByRole('heading', { level: 2, name: ko.account.passwordChange.heading })).toBeVisible();
  await expect(page.getByText(sent)).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('We sent');
});
