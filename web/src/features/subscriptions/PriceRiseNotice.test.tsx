import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Subscription } from '../../api/models';
import { en } from '../../i18n/en';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';
import { SubscriptionSection } from './SubscriptionSection';

/** Consent before a price rise: the notice states the change and answers only by one of its two buttons. */

const asked: Subscription = {
  subscriptionId: 's-1',
  userLicenseId: 'l-1',
  status: 'active',
  isScheduled: true,
  nextPaymentAt: '2026-12-01T00:00:00Z',
  paidUntil: '2026-12-01T00:00:00Z',
  price: 2900,
  nextRenewalPrice: 2900,
  currency: 'KRW',
  licenseName: 'Unicorn Pro for Android',
  cardName: 'BC',
  cardNumber: '4111-****-****-1111',
  allowedActions: ['cancelAutoRenewal', 'changePaymentMethod'],
  resumeComplete: false,
  accountCreated: false,
  priceRise: {
    kind: 'price-rise',
    catalogueVersion: 2,
    changesAt: '2026-12-31T00:00:00Z',
    previousPrice: 2900,
    newPrice: 3500,
    currency: 'KRW',
    paymentMethod: 'BC **** **** **** 1111',
    answer: 'pending',
    answeredAt: null,
    withoutAnswer: 'auto-renewal-stops',
  },
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

async function renderNotice() {
  renderAtAddress(
    <Route path="/:lang/license/:id">
      <SubscriptionSection userLicenseId="l-1" />
    </Route>,
    '/en/license/l-1?subscription=price',
  );
  return screen.findByRole('region', { name: en.subscriptions.priceRise.heading });
}

beforeEach(() => {
  document.cookie = 'logged_in=u-1; path=/';
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
  });
});

describe('the price-rise notice', () => {
  it('states the date, both prices, the card and what happens without an answer; the link answers nothing', async () => {
    const calls = serve({ 'GET /payments/licenses/subscribe/l-1': () => json(200, asked) });
    const notice = await renderNotice();
    expect(notice.textContent).toContain('2,900');
    expect(notice.textContent).toContain('3,500');
    expect(notice.textContent).toContain('1111');
    expect(notice.textContent).toContain('auto-renewal stops');
    const buttons = within(notice).getAllByRole('button').map((button) => button.textContent);
    expect(buttons).toEqual([en.subscriptions.priceRise.agree, en.subscriptions.priceRise.stop]);
    expect(calls).toEqual(['GET /payments/licenses/subscribe/l-1']);
  });

  it('agrees only when the button is pressed, and then says from when the new price applies', async () => {
    const agreed = { ...asked, priceRise: { ...asked.priceRise!, answer: 'agreed', answeredAt: '2026-11-10T00:00:00Z' } };
    const calls = serve({
      'GET /payments/licenses/subscribe/l-1': () => json(200, asked),
      'POST /payments/licenses/subscribe/l-1/price-rise/agree': () => json(200, agreed),
    });
    const notice = await renderNotice();
    await act(async () => {
      fireEvent.click(within(notice).getByRole('button', { name: en.subscriptions.priceRise.agree }));
    });
    expect(calls).toContain('POST /payments/licenses/subscribe/l-1/price-rise/agree');
    expect((await screen.findByTestId('price-rise-answer')).textContent).toContain('3,500');
    expect(within(await renderedNotice()).queryAllByRole('button')).toEqual([]);
  });
});

const renderedNotice = () => screen.findByRole('region', { name: en.subscriptions.priceRise.heading });
