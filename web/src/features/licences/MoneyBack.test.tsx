import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserLicenceDetail } from '../../api/models';
import { en } from '../../i18n/en';
import { ko } from '../../i18n/ko';
import { renderInLang } from '../../test/renderInLang';
import { MoneyBack } from './MoneyBack';

const offer = {
  merchantUid: 'm-1',
  amount: 24_360,
  currency: 'KRW',
  deadline: '2026-12-31T00:00:00Z',
  payMethod: 'card',
  cardName: 'Shinhan',
  cardNumber: '4111-****-****-1111',
  atOnce: true,
};
const licence = { moneyBack: offer, payments: [], devices: [{}, {}] } as unknown as UserLicenceDetail;

function respond(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => respond({ merchantUid: 'm-1', requestId: 'r-1', state: 'refunded', amount: 24_360, refused: null, requestedAt: '' })),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the money-back request', () => {
  it('asks in a dialog that says how much goes back, to which card, and that the app stops on every device', async () => {
    const answered = vi.fn();
    renderInLang(<MoneyBack licence={licence} onAnswered={answered} />, 'en');
    const texts = en.licences.moneyBack;
    fireEvent.click(screen.getByRole('button', { name: texts.ask }));
    const dialog = screen.getByRole('alertdialog', { name: texts.confirmTitle });
    const summary = within(dialog).getByTestId('money-back-summary');
    expect(summary.textContent).toContain('24,360 KRW');
    expect(summary.textContent).toContain('Shinhan 4111-****-****-1111');
    expect(summary.textContent).toContain('every device (2 registered now)');
    // The cautious answer has the focus, Escape is no, and nothing was asked.
    const keep = within(dialog).getByRole('button', { name: texts.keep });
    expect(document.activeElement).toBe(keep);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: texts.ask }));
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: texts.confirmButton }));
    });
    expect(String(vi.mocked(fetch).mock.calls[0]?.[0])).toContain('/payments/licenses/m-1/money-back');
    expect(await screen.findByText(texts.refunded)).toBeTruthy();
    expect(answered).toHaveBeenCalled();
  });

  it('keeps the focus inside the dialog and speaks Korean on a ko page', () => {
    renderInLang(<MoneyBack licence={licence} onAnswered={() => undefined} />, 'ko');
    const texts = ko.licences.moneyBack;
    fireEvent.click(screen.getByRole('button', { name: texts.ask }));
    const dialog = screen.getByRole('alertdialog', { name: texts.confirmTitle });
    expect(within(dialog).getByTestId('money-back-summary').textContent).toContain('24,360원');
    const confirm = within(dialog).getByRole('button', { name: texts.confirmButton });
    confirm.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: texts.keep }));
  });
});
