/**
 * The payment access settings (spec section 7: "fetched once at start"), kept in the app store: the
 * PortOne script and merchant code, the visitor's country as the server decided it (never from the UI
 * language, so switching language keeps the currency), the currency its prices are paid in, and the
 * payment methods that currency takes. One request per page life, however many callers ask.
 */
import type { PaymentSettings } from '../api/models';
import type { AppSliceCreator } from '../store/types';

export interface PaymentSettingsSlice {
  /** Null until the first answer arrives. */
  paymentSettings: PaymentSettings | null;
  /** The settings, fetched on the first call only (a failed fetch is tried again on the next call). */
  loadPaymentSettings: () => Promise<PaymentSettings>;
}

export function createPaymentSettingsSlice(
  fetchSettings: () => Promise<PaymentSettings>,
): AppSliceCreator<PaymentSettingsSlice> {
  return (set, get) => {
    let pending: Promise<PaymentSettings> | null = null;
    return {
      paymentSettings: null,
      loadPaymentSettings: () => {
        const known = get().paymentSettings;
        if (known) return Promise.resolve(known);
        pending ??= fetchSettings().then(
          (settings) => {
            set({ paymentSettings: settings }, undefined, 'payments/settingsLoaded');
            return settings;
          },
          (error: unknown) => {
            pending = null;
            throw error;
          },
        );
        return pending;
      },
    };
  };
}
