import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInLang } from '../test/renderInLang';
import { FinalConfirmation, type FinalOrder } from './FinalConfirmation';
import { CONFIRMATION_TEXT } from './confirmationText';

/** The screen before paying shows the six items of Japan's Article 12-6 in one place, in every language. */

const annual: FinalOrder = {
  item: 'Android Pro (annual, 1 device)',
  price: { amount: 24360, currency: 'KRW' },
  method: 'Card',
  renewal: { amount: 24360, currency: 'KRW', life: 365 },
  policyHref: '/ko/terms/subscription',
};

function items() {
  const block = screen.getByTestId('final-confirmation');
  return Object.fromEntries(
    [...block.querySelectorAll('[data-item]')].map((row) => [row.getAttribute('data-item'), row.querySelector('dd')?.textContent]),
  );
}

afterEach(cleanup);

describe('the final confirmation', () => {
  it('shows what is bought, its price with VAT, when and how it is paid, when it starts, how to stop and the renewal', () => {
    renderInLang(<FinalConfirmation order={annual} />, 'ko');
    const shown = items();
    expect(Object.keys(shown)).toEqual(['item', 'price', 'payment', 'starts', 'cancel', 'renewal']);
    expect(shown.item).toBe(annual.item);
    expect(shown.price).toBe('24,360원 (VAT 포함)');
    expect(shown.payment).toContain('Card');
    expect(shown.cancel).toBe(CONFIRMATION_TEXT.ko.cancelSubscription);
    expect(shown.renewal).toBe('매년 24,360원 (VAT 포함)에 자동으로 갱신되며, 해지할 때까지 계속됩니다.');
    expect(within(screen.getByTestId('final-confirmation')).getByRole('link').getAttribute('href')).toBe(
      '/ko/terms/subscription',
    );
  });

  it('labels Japanese prices as tax included (税込) and says how often a monthly plan renews', () => {
    renderInLang(
      <FinalConfirmation order={{ ...annual, price: { amount: 980, currency: 'JPY' }, renewal: { amount: 980, currency: 'JPY', life: 30 } }} />,
      'ja',
    );
    const shown = items();
    expect(shown.price).toMatch(/980.*\(税込\)$/);
    expect(shown.renewal).toMatch(/^毎月.*980.*\(税込\)で自動更新/);
  });

  it('says a one-off purchase never renews, and that a virtual account starts on the deposit', () => {
    renderInLang(<FinalConfirmation order={{ ...annual, renewal: undefined, byDeposit: true }} />, 'en');
    const shown = items();
    expect(shown.price).toBe('24,360 KRW (tax included)');
    expect(shown.payment).toBe(CONFIRMATION_TEXT.en.payByDeposit);
    expect(shown.starts).toBe(CONFIRMATION_TEXT.en.startsOnDeposit);
    expect(shown.cancel).toBe(CONFIRMATION_TEXT.en.cancelPurchase);
    expect(shown.renewal).toBe(CONFIRMATION_TEXT.en.noRenewal);
  });
});
