/** Payment settings as GET /payments/settings answers them, for tests that put them in the app store. */
import type { PaymentSettings } from '../api/models';

const common = {
  impCode: 'imp_sandbox',
  scriptUrl: 'http://127.0.0.1:8001/sandbox/iamport.js',
  billingKeyMethods: ['creditCard', 'kakaopay', 'naverpay'],
};

/** A visitor from Korea (the default country). */
export const wonSettings: PaymentSettings = {
  ...common,
  countryCode: 'KR',
  currency: 'KRW',
  paymentMethods: ['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay', 'point'],
};

/** A visitor the server places in the US. */
export const dollarSettings: PaymentSettings = {
  ...common,
  countryCode: 'US',
  currency: 'USD',
  paymentMethods: ['creditCard'],
};
