import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { PurchasableLicence, Subscription } from '../api/models';
import { SubscriptionSection } from '../features/subscriptions/SubscriptionSection';
import { en } from '../i18n/en';
import { appStore } from '../store';
import { wonSettings } from '../test/paymentSettings';
import { renderAtAddress } from '../test/renderAtAddress';
import { AppRoutes } from './routes';

/**
 * No dark pattern by construction (issue 42; docs/legal.md): a member counts the steps it takes to subscribe on the
 * purchase page and to stop auto-renewal on the licence page, and stopping never takes more; nothing on the way is
 * ticked for them, and the exit survey can be left blank.
 */

const licence: PurchasableLicence = {
  id: 121,
  productCode: 'uncpa',
  life: 365,
  maxDevicesCount: 1,
  prices: [{ countryCode: 'KR', currency: 'KRW', price: 34800, requestPrice: 24360 }],
  localizations: [{ langCode: 'en', name: 'Android Pro, 1 device', description: '' }],
  discountFactors: [{ type: 'base', factor: '0.3' }],
};
const subscription: Subscription = {
  subscriptionId: 's-1',
  userLicenseId: 'l-1',
  status: 'active',
  isScheduled: true,
  nextPaymentAt: '2027-12-01T00:00:00Z',
  paidUntil: '2027-12-01T00:00:00Z',
  price: 24360,
  nextRenewalPrice: 24360,
  currency: 'KRW',
  licenseName: 'Android Pro, 1 device',
  cardName: 'BC',
  cardNumber: '4111-****-****-1111',
  allowedActions: ['cancelAutoRenewal', 'changePaymentMethod'],
  resumeComplete: false,
  accountCreated: false,
};
// The hardest exit we have: reasons asked and the one retention offer shown beside them.
const question = {
  reasons: ['too-expensive', 'not-using', 'other'],
  commentLimit: 1000,
  offer: { percentOff: 30, factor: '0.3', renewsAt: '2027-12-01T00:00:00Z', price: 24360, offeredPrice: 17052, currency: 'KRW' },
};

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

const calls: string[] = [];
const answers: Record<string, () => Response> = {
  'GET /purchasable-licenses/new': () => json([licence]),
  'POST /payments/licenses/subscribe/new/new-billingkey': () => json(subscription),
  'GET /payments/licenses/subscribe/l-1': () => json(subscription),
  'GET /payments/licenses/subscribe/l-1/exit': () => json(question),
  'POST /payments/licenses/subscribe/l-1/exit': () => json({ ...subscription, status: 'cancelled', isScheduled: false }),
};

/** Everything the member does, one step at a time. */
function stepCounter() {
  let steps = 0;
  return {
    click: (element: Element) => {
      steps += 1;
      fireEvent.click(element);
    },
    fill: (element: Element, value: string) => {
      steps += 1;
      fireEvent.change(element, { target: { value } });
    },
    get steps() {
      return steps;
    },
  };
}

beforeEach(() => {
  calls.length = 0;
  document.cookie = 'logged_in=u-1; path=/';
  appStore.setState({
    paymentSettings: wonSettings,
    sessionChecked: true,
    user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = `${init?.method ?? 'GET'} ${url.pathname.replace('/web/unicornpro/v1', '')}`;
      calls.push(call);
      const answer = answers[call];
      return answer ? answer() : new Promise<Response>(() => undefined);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function stepsToSubscribe(): Promise<number> {
  const member = stepCounter();
  renderAtAddress(<AppRoutes />, '/en/purchase');
  const autoRenew = await screen.findByRole('checkbox', { name: en.purchase.autoRenew });
  expect((autoRenew as HTMLInputElement).checked).toBe(false);
  const agreements = screen.getAllByRole('checkbox').filter((box) => box !== autoRenew);
  expect(agreements.every((box) => !(box as HTMLInputElement).checked)).toBe(true);

  member.click(autoRenew);
  member.click(screen.getByLabelText(en.purchase.agreeAll));
  member.fill(await screen.findByLabelText(en.purchase.card.number), '4111111111111111');
  const month = screen.getByRole('combobox', { name: en.purchase.card.month }) as HTMLSelectElement;
  member.fill(month, month.options[month.options.length - 1]?.value ?? '');
  const year = screen.getByRole('combobox', { name: en.purchase.card.year }) as HTMLSelectElement;
  member.fill(year, year.options[year.options.length - 1]?.value ?? '');
  member.fill(screen.getByLabelText(en.purchase.card.password), '12');
  member.fill(screen.getByLabelText(en.purchase.card.birth), '900101');
  await act(async () => member.click(screen.getByRole('button', { name: /Subscribe for/ })));
  await waitFor(() => expect(calls).toContain('POST /payments/licenses/subscribe/new/new-billingkey'));
  return member.steps;
}

async function stepsToStopAutoRenewal(): Promise<number> {
  const member = stepCounter();
  renderAtAddress(
    <Route path="/:lang/license/:id">
      <SubscriptionSection userLicenseId="l-1" />
    </Route>,
    '/en/license/l-1',
  );
  const section = await screen.findByRole('region', { name: en.subscriptions.heading });
  member.click(within(section).getByRole('button', { name: en.subscriptions.cancel }));
  const dialog = await screen.findByRole('alertdialog');
  await within(dialog).findAllByRole('checkbox');
  expect(within(dialog).getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  // The survey is left blank: stopping does not wait for an answer.
  await act(async () => member.click(within(dialog).getByRole('button', { name: en.subscriptions.cancel })));
  await waitFor(() => expect(calls).toContain('POST /payments/licenses/subscribe/l-1/exit'));
  return member.steps;
}

describe('stopping auto-renewal', () => {
  it('takes no more steps than subscribing, with nothing ticked for the member and the survey optional', async () => {
    const subscribe = await stepsToSubscribe();
    document.body.innerHTML = '';
    const stop = await stepsToStopAutoRenewal();
    expect(stop).toBe(2);
    expect(subscribe).toBe(8);
    expect(stop).toBeLessThanOrEqual(subscribe);
  });
});
