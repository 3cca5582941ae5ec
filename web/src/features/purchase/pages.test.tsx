import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { AppRoutes } from '../../app/routes';
import { appStore } from '../../store';
import { ko } from '../../i18n/ko';
import { en } from '../../i18n/en';
import type { PurchasableLicence } from '../../api/models';
import { dollarSettings, wonSettings } from '../../test/paymentSettings';
import { renderAtAddress } from '../../test/renderAtAddress';

function licence(id: number, life: number, devices: number, krw: number, usd: number): PurchasableLicence {
  return {
    id,
    productCode: 'uncpa',
    life,
    maxDevicesCount: devices,
    prices: [
      { countryCode: 'KR', currency: 'KRW', price: krw, requestPrice: life === 365 ? Math.floor(krw * 0.7) : krw },
      { countryCode: 'US', currency: 'USD', price: usd, requestPrice: life === 365 ? Math.floor(usd * 0.7) : usd },
    ],
    localizations: [
      { langCode: 'ko', name: `안드로이드 ${life}일 (${devices}대)`, description: '' },
      { langCode: 'en', name: `Android ${life} days (${devices})`, description: '' },
    ],
    discountFactors: life === 365 ? [{ type: 'base', factor: '0.3' }] : [],
  };
}

const catalogue = [
  licence(111, 30, 1, 2900, 299),
  licence(121, 365, 1, 34800, 3588),
  licence(123, 365, 3, 58800, 5988),
  licence(131, 36500, 1, 59000, 4999),
];

function respond(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url);
}

beforeEach(() => {
  // The settings the app fetched once at start: a visitor from Korea unless a story says otherwise.
  appStore.setState({ paymentSettings: wonSettings });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/purchasable-licenses/new')) return respond(catalogue);
      // The payment script settings: never answered in these tests.
      return new Promise<Response>(() => undefined);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('purchase page', () => {
  it('selects the annual licence and one device by default, priced in won', async () => {
    renderAt('/ko/purchase');
    const annual = await screen.findByRole('radio', { name: /연간 구독/ });
    expect((annual as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: /기기 1대/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: '24,360원 결제하기' })).toBeTruthy();
    const summary = screen.getByRole('complementary');
    expect(within(summary).getByText('안드로이드 365일 (1대)')).toBeTruthy();
    expect(within(summary).getByText('34,800원')).toBeTruthy();
  });

  it('prices in dollars for a visitor the server places in the US, and follows the chosen period', async () => {
    appStore.setState({ paymentSettings: dollarSettings });
    renderAt('/en/purchase');
    await screen.findByRole('button', { name: 'Pay $25.11' });
    fireEvent.click(screen.getByRole('radio', { name: /Lifetime licence/ }));
    expect(screen.getByRole('button', { name: 'Pay $49.99' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /3 devices/ })).toBeNull();
  });

  it('keeps the currency when the visitor switches language (the server decides the country, not the language)', async () => {
    renderAt('/ko/purchase');
    await screen.findByRole('button', { name: '24,360원 결제하기' });
    await act(async () => navigate('/en/purchase'));
    expect(await screen.findByRole('button', { name: 'Pay 24,360 KRW' })).toBeTruthy();
    await act(async () => navigate('/ja/purchase'));
    expect(await screen.findByRole('button', { name: /24,360 KRW/ })).toBeTruthy();
    const calls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(calls.some((url) => url.includes('/payments/settings'))).toBe(false);
  });

  it('offers points to a visitor paying in won and only the card to one paying in dollars', async () => {
    renderAt('/ko/purchase');
    expect(await screen.findByRole('radio', { name: ko.purchase.methods.point })).toBeTruthy();
    cleanup();
    appStore.setState({ paymentSettings: dollarSettings });
    renderAt('/ko/purchase');
    await screen.findByRole('radio', { name: ko.purchase.methods.creditCard });
    expect(screen.queryByRole('radio', { name: ko.purchase.methods.point })).toBeNull();
    expect(screen.queryByRole('radio', { name: ko.purchase.methods.virtualAccount })).toBeNull();
  });

  it('asks a guest for the email and the agreements before ordering', async () => {
    renderAt('/ko/purchase');
    const pay = await screen.findByRole('button', { name: '24,360원 결제하기' });
    await act(async () => {
      fireEvent.click(pay);
    });
    expect(await screen.findByText(ko.purchase.validation.emailExact)).toBeTruthy();
    expect(screen.getByText(ko.purchase.validation.agreements)).toBeTruthy();
    const calls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(calls.some((url) => url.includes('/payments/licenses/new'))).toBe(false);
  });

  it('ticks every agreement with agree-all', async () => {
    renderAt('/ko/purchase');
    fireEvent.click(await screen.findByLabelText(ko.purchase.agreeAll));
    for (const label of [ko.purchase.termsOfUse, ko.purchase.purchasePolicy, ko.purchase.personalInfo, ko.purchase.privacyPolicy]) {
      expect((screen.getByLabelText(label) as HTMLInputElement).checked).toBe(true);
    }
  });

  it('lets a guest subscribe through a payment window, never with card fields on the page', async () => {
    renderAt('/ko/purchase');
    fireEvent.click(await screen.findByLabelText(ko.purchase.autoRenew));
    expect(screen.getByRole('radio', { name: ko.purchase.methods.naverpay })).toBeTruthy();
    expect(screen.queryByLabelText(ko.purchase.card.number)).toBeNull();
    expect(screen.getByText('신용카드 결제창에서 결제 수단을 등록하면 첫 기간이 바로 결제됩니다.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '24,360원 구독 시작하기' }));
    });
    expect(await screen.findByText(ko.purchase.validation.emailExact)).toBeTruthy();
    const calls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(calls.some((url) => url.includes('/billingkeys'))).toBe(false);
  });

  it('never shows card fields for a one-off purchase', async () => {
    renderAt('/ko/purchase');
    await screen.findByRole('radio', { name: /연간 구독/ });
    expect(screen.queryByLabelText(ko.purchase.card.number)).toBeNull();
  });
});

describe('purchase page for a logged-in buyer', () => {
  beforeEach(() => {
    document.cookie = 'logged_in=u-1; path=/';
    appStore.getState().setUser({
      userId: 'u-1',
      email: 'minji@example.com',
      scope: 1,
      accessToken: 'token',
      expiredAt: Date.now() + 3_600_000,
    });
    appStore.getState().setSessionChecked();
  });
  afterEach(() => appStore.getState().clearSession());

  it('asks no email and offers automatic payment by card, KakaoPay or Naver Pay for subscriptions only', async () => {
    renderAt('/ko/purchase');
    expect(await screen.findByText('minji@example.com 계정으로 구매합니다.')).toBeTruthy();
    expect(screen.queryByLabelText(ko.purchase.emailLabel)).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: ko.purchase.methods.virtualAccount }));
    fireEvent.click(screen.getByLabelText(ko.purchase.autoRenew));
    const methods = screen.getAllByRole('radio', { name: /카드|페이/ }).map((radio) => radio.closest('label')?.textContent);
    expect(methods).toEqual([ko.purchase.methods.creditCard, ko.purchase.methods.kakaopay, ko.purchase.methods.naverpay]);
    expect(screen.queryByRole('radio', { name: ko.purchase.methods.virtualAccount })).toBeNull();
    // The card is typed here by a member; KakaoPay registers it in its own window.
    expect((screen.getByRole('radio', { name: ko.purchase.methods.creditCard }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText(ko.purchase.card.number)).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: ko.purchase.methods.kakaopay }));
    expect(screen.queryByLabelText(ko.purchase.card.number)).toBeNull();
    expect(screen.getByText('카카오페이 결제창에서 결제 수단을 등록하면 첫 기간이 바로 결제됩니다.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '24,360원 구독 시작하기' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /평생 이용권/ }));
    expect(screen.queryByLabelText(ko.purchase.autoRenew)).toBeNull();
    expect(screen.queryByLabelText(ko.purchase.card.number)).toBeNull();
    expect(screen.getByRole('button', { name: '59,000원 결제하기' })).toBeTruthy();
  });

  it('checks the card before anything is sent', async () => {
    renderAt('/ko/purchase');
    fireEvent.click(await screen.findByLabelText(ko.purchase.autoRenew));
    fireEvent.click(screen.getByLabelText(ko.purchase.agreeAll));
    fireEvent.change(screen.getByLabelText(ko.purchase.card.number), { target: { value: '4111-1111' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '24,360원 구독 시작하기' }));
    });
    // Each card field says what it needs.
    expect(await screen.findByText(ko.purchase.validation.cardNumber)).toBeTruthy();
    expect(screen.getByText(ko.purchase.validation.birth)).toBeTruthy();
    const calls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(calls.some((url) => url.includes('/subscribe/'))).toBe(false);
  });

  it('offers the card on file beside a new card and subscribes with it without typing it', async () => {
    const saved = { billingkeyId: 'bk-1', customerUid: 'c-1', pg: 'kcp_billing', cardName: '신한', cardNumber: '4111-****-****-1111', isDefault: true };
    vi.mocked(fetch).mockImplementation(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/purchasable-licenses/new')) return respond(catalogue);
      if (url.endsWith('/billingkeys')) return respond({ billingkeys: [saved], defaultBillingkeyId: 'bk-1' });
      if (url.includes('/payments/licenses/subscribe/new')) return respond({ message: 'not in this story' }, 500);
      return new Promise<Response>(() => undefined);
    });
    renderAt('/ko/purchase');
    fireEvent.click(await screen.findByLabelText(ko.purchase.autoRenew));
    const choices = await screen.findByRole('group', { name: ko.purchase.savedCards.heading });
    const onFile = within(choices).getByRole('radio', { name: '신한 4111-****-****-1111 (기본 카드)' }) as HTMLInputElement;
    expect(onFile.checked).toBe(true);
    expect(screen.queryByLabelText(ko.purchase.card.number)).toBeNull();
    fireEvent.click(within(choices).getByRole('radio', { name: ko.purchase.savedCards.newCard }));
    expect(screen.getByLabelText(ko.purchase.card.number)).toBeTruthy();
    fireEvent.click(onFile);
    fireEvent.click(screen.getByLabelText(ko.purchase.agreeAll));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '24,360원 구독 시작하기' }));
    });
    const sent = vi.mocked(fetch).mock.calls.find(([input]) => String(input).includes('/subscribe/new'));
    expect(String(sent?.[0])).toMatch(/\/payments\/licenses\/subscribe\/new$/);
    expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({ licenseId: 121, billingkeyId: 'bk-1' });
  });
});

describe('payment failure page', () => {
  it('says the buyer stopped the payment', async () => {
    renderAt('/ko/payment/121?errorCode=STOP');
    expect(await screen.findByRole('heading', { level: 1, name: ko.payments.failure.heading })).toBeTruthy();
    expect(screen.getByText(ko.payments.errorCodes.STOP)).toBeTruthy();
  });

  it('shows the catalogue message of the code', async () => {
    renderAt('/en/payment/121?errorCode=-301');
    expect(await screen.findByText(en.payments.errorCodes['-301'])).toBeTruthy();
  });
});

describe('payment confirm page', () => {
  it('has nothing to show on a plain visit', async () => {
    renderAt('/ko/payment/confirm');
    expect(await screen.findByText(ko.payments.confirm.nothing)).toBeTruthy();
  });

  it("sums up a bought licence's upgrade: plan, amount paid, credit taken off and the receipt's page", async () => {
    const confirmation = { userLicenseId: 'l-1', licenseKey: 'KEY-1', state: 'paid', email: 'minji@example.com', accountCreated: false };
    const upgrade = { merchantUid: 'up-1', licenseName: '연간 구독 (기기 3대)', amount: 39_710, currency: 'KRW', credit: 1_450 };
    renderAtAddress(<AppRoutes />, '/en/payment/confirm', { confirmation, upgraded: true, upgrade });
    expect(await screen.findByRole('heading', { level: 1, name: en.payments.confirm.upgradedHeading })).toBeTruthy();
    const summary = screen.getByTestId('upgrade-summary');
    expect(within(summary).getByText('연간 구독 (기기 3대)')).toBeTruthy();
    expect(within(summary).getByTestId('charged-amount').textContent).toContain('39,710');
    expect(within(summary).getByTestId('upgrade-credit').textContent).toContain('1,450');
    const receipt = within(summary).getByRole('link', { name: en.payments.confirm.receipt });
    expect(receipt.getAttribute('href')).toBe('/en/purchase-history/up-1');
  });

  it("sums up an upgrade confirmed on a phone's return from the window, from the confirmation itself", async () => {
    const upgrade = { merchantUid: 'up-2', licenseName: 'Lifetime', amount: 34_640, currency: 'KRW', credit: 24_360 };
    const confirmation = { userLicenseId: 'l-1', licenseKey: 'KEY-1', state: 'paid', email: 'minji@example.com', accountCreated: false, upgrade };
    renderAtAddress(<AppRoutes />, '/ko/payment/confirm', { confirmation });
    expect(await screen.findByRole('heading', { level: 1, name: ko.payments.confirm.upgradedHeading })).toBeTruthy();
    expect(within(screen.getByTestId('upgrade-summary')).getByTestId('upgrade-credit').textContent).toBe('−24,360원');
  });
});
