import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Subscription } from '../../api/models';
import { en } from '../../i18n/en';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';
import { SubscriptionSection } from './SubscriptionSection';

/** The section shows exactly the buttons of the actions the server allows, and nothing it does not. */

const base: Subscription = {
  subscriptionId: 's-1',
  userLicenseId: 'l-1',
  status: 'active',
  isScheduled: true,
  nextPaymentAt: '2026-12-01T00:00:00Z',
  paidUntil: '2026-12-01T00:00:00Z',
  price: 2900,
  currency: 'KRW',
  licenseName: 'Unicorn Pro for Android',
  cardName: 'BC',
  cardNumber: '4111-****-****-1111',
  allowedActions: ['cancelAutoRenewal', 'changePaymentMethod'],
  resumeComplete: false,
  accountCreated: false,
};

const pastDue: Subscription = {
  ...base,
  status: 'past_due',
  nextPaymentAt: '2026-12-02T00:00:00Z',
  allowedActions: ['cancelAutoRenewal', 'changePaymentMethod', 'payNow'],
};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function serve(answers: Record<string, () => Response>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = `${init?.method ?? 'GET'} ${url.pathname.replace('/web/unicornpro/v1', '')}`;
      calls.push(call);
      const answer = answers[call];
      return answer ? answer() : json(404, { errorCode: 404 });
    }),
  );
  return calls;
}

function renderSection() {
  renderAtAddress(
    <Route path="/:lang/license/:id">
      <SubscriptionSection userLicenseId="l-1" />
    </Route>,
    '/en/license/l-1',
  );
  return screen.findByRole('region', { name: en.subscriptions.heading });
}

const buttonNames = (section: HTMLElement) =>
  within(section)
    .queryAllByRole('button')
    .map((button) => button.textContent);

beforeEach(() => {
  document.cookie = 'logged_in=u-1; path=/';
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
  });
});

describe('the subscription section', () => {
  it('offers a renewing subscription a card change and cancelling, and shows its next payment', async () => {
    serve({ 'GET /payments/licenses/subscribe/l-1': () => json(200, base) });
    const section = await renderSection();
    expect(buttonNames(section)).toEqual([en.subscriptions.changeMethod, en.subscriptions.cancel]);
    expect(within(section).getByTestId('subscription-next-payment')).toBeTruthy();
    expect(within(section).getByTestId('subscription-auto-renewal').textContent).toBe(en.subscriptions.statuses.active);
  });

  it('offers a past-due subscription paying now, not resuming, and shows when the payment is retried', async () => {
    const calls = serve({
      'GET /payments/licenses/subscribe/l-1': () => json(200, pastDue),
      'POST /payments/licenses/subscribe/l-1/pay': () => json(200, base),
    });
    const section = await renderSection();
    expect(buttonNames(section)).toEqual([en.subscriptions.payNow, en.subscriptions.changeMethod, en.subscriptions.cancel]);
    expect(within(section).getByTestId('subscription-retry-at')).toBeTruthy();
    expect(within(section).getByTestId('subscription-auto-renewal').textContent).toBe(en.subscriptions.statuses.pastDue);
    expect(within(section).getByText(en.subscriptions.pastDueHint)).toBeTruthy();

    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: en.subscriptions.payNow }));
    });
    expect(calls).toContain('POST /payments/licenses/subscribe/l-1/pay');
    expect(await within(section).findByText(en.subscriptions.paid)).toBeTruthy();
    expect(buttonNames(section)).toEqual([en.subscriptions.changeMethod, en.subscriptions.cancel]);
  });

  it('offers resuming within the paid period and re-subscribing after the end, as the server says', async () => {
    serve({
      'GET /payments/licenses/subscribe/l-1': () =>
        json(200, { ...base, status: 'cancelled', isScheduled: false, nextPaymentAt: null, allowedActions: ['resume', 'changePaymentMethod'] }),
    });
    const cancelled = await renderSection();
    expect(buttonNames(cancelled)).toEqual([en.subscriptions.resumePrevious, en.subscriptions.resumeNewCard, en.subscriptions.changeMethod]);
    expect(within(cancelled).getByTestId('subscription-paid-until')).toBeTruthy();
  });

  it('offers an ended subscription re-subscribing only', async () => {
    serve({
      'GET /payments/licenses/subscribe/l-1': () =>
        json(200, { ...base, status: 'ended', isScheduled: false, nextPaymentAt: null, allowedActions: ['resubscribe'] }),
    });
    const ended = await renderSection();
    expect(buttonNames(ended)).toEqual([en.subscriptions.resubscribePrevious, en.subscriptions.resubscribeNewCard]);
  });

  it('offers nothing when the server allows nothing (a refunded licence)', async () => {
    serve({
      'GET /payments/licenses/subscribe/l-1': () =>
        json(200, { ...base, status: 'ended', isScheduled: false, nextPaymentAt: null, allowedActions: [] }),
    });
    expect(buttonNames(await renderSection())).toEqual([]);
  });
});
