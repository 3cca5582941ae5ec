import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Subscription } from '../../api/models';
import { en } from '../../i18n/en';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';
import { EXIT_TEXT } from './exitText';
import { SubscriptionSection } from './SubscriptionSection';

/**
 * The exit dialog: one dialog asks why and shows the one offer; "stop" declines the offer and stops at once (no
 * second prompt); the offer's button keeps auto-renewal on; "keep" changes nothing.
 */

const exit = EXIT_TEXT.en;
const active: Subscription = {
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
};
const question = {
  reasons: ['too-expensive', 'not-using', 'other'],
  commentLimit: 1000,
  offer: { percentOff: 30, factor: '0.3', renewsAt: '2026-12-01T00:00:00Z', price: 2900, offeredPrice: 2030, currency: 'KRW' },
};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function serve(answers: Record<string, () => Response>) {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = `${init?.method ?? 'GET'} ${url.pathname.replace('/web/unicornpro/v1', '')}`;
      calls.push({ call, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[call];
      return answer ? answer() : json(404, { errorCode: 404 });
    }),
  );
  return calls;
}

async function openDialog() {
  renderAtAddress(
    <Route path="/:lang/license/:id">
      <SubscriptionSection userLicenseId="l-1" />
    </Route>,
    '/en/license/l-1',
  );
  const section = await screen.findByRole('region', { name: en.subscriptions.heading });
  fireEvent.click(within(section).getByRole('button', { name: en.subscriptions.cancel }));
  const dialog = await screen.findByRole('alertdialog', { name: exit.title });
  await within(dialog).findByRole('region', { name: exit.offerHeading });
  return { section, dialog };
}

beforeEach(() => {
  document.cookie = 'logged_in=u-1; path=/';
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
  });
});

describe('the exit dialog', () => {
  it('stops at once with the answers, declining the offer, and asks nothing more', async () => {
    const calls = serve({
      'GET /payments/licenses/subscribe/l-1': () => json(200, active),
      'GET /payments/licenses/subscribe/l-1/exit': () => json(200, question),
      'POST /payments/licenses/subscribe/l-1/exit': () =>
        json(200, { ...active, status: 'cancelled', isScheduled: false, nextPaymentAt: null, nextRenewalPrice: null, allowedActions: ['resume'] }),
    });
    const { section, dialog } = await openDialog();
    const names = within(dialog).getAllByRole('button').map((button) => button.textContent);
    expect(names).toEqual([exit.accept.replace('{percent}', '30'), en.subscriptions.keepRenewing, en.subscriptions.cancel]);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: exit.reasons['too-expensive'] }));
    fireEvent.change(within(dialog).getByLabelText(new RegExp(exit.comment)), { target: { value: ' not for me ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.subscriptions.cancel }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await within(section).findByText(en.subscriptions.statuses.cancelled);
    const stop = calls.find((item) => item.call === 'POST /payments/licenses/subscribe/l-1/exit');
    expect(stop?.body).toEqual({ reasons: ['too-expensive'], comment: 'not for me', offerDeclined: true });
  });

  it('takes the offer and keeps auto-renewal on, showing the discounted next renewal', async () => {
    const calls = serve({
      'GET /payments/licenses/subscribe/l-1': () => json(200, active),
      'GET /payments/licenses/subscribe/l-1/exit': () => json(200, question),
      'POST /payments/licenses/subscribe/l-1/exit/offer': () => json(200, { ...active, nextRenewalPrice: 2030 }),
    });
    const { section, dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: exit.accept.replace('{percent}', '30') }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await within(section).findByTestId('subscription-next-renewal-price')).toBeTruthy();
    expect(calls.map((item) => item.call)).not.toContain('POST /payments/licenses/subscribe/l-1/exit');
  });

  it('keeps auto-renewal and calls nothing when the subscriber keeps it', async () => {
    const calls = serve({
      'GET /payments/licenses/subscribe/l-1': () => json(200, active),
      'GET /payments/licenses/subscribe/l-1/exit': () => json(200, question),
    });
    const { dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: en.subscriptions.keepRenewing }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.filter((item) => item.call.startsWith('POST'))).toEqual([]);
  });
});
