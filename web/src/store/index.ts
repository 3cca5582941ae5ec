import { useStore } from 'zustand';
import { devtools } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import type { PaymentSettings } from '../api/models';
import { apiGet } from '../api/typed';
import { createPaymentSettingsSlice } from '../billing/paymentSettingsSlice';
import type { AppState } from './types';
import { createSessionSlice } from '../session/sessionSlice';
import { createUiSlice } from './uiSlice';

export type { AppState } from './types';

/** GET /payments/settings: the payment access settings. */
export function fetchPaymentSettings(): Promise<PaymentSettings> {
  return apiGet('/payments/settings', {});
}

/** Redux devtools in development; in production the slices as they are, so the bundle leaves the middleware out
 * (slices' action names, the third argument of `set`, are then ignored). */
const withDevtools = (import.meta.env.DEV ? devtools : (slices: unknown) => slices) as typeof devtools;

/** A fresh store; tests make their own (with their own settings call), the app uses `appStore`. */
export function createAppStore({ paymentSettings = fetchPaymentSettings }: { paymentSettings?: () => Promise<PaymentSettings> } = {}) {
  return createStore<AppState>()(
    withDevtools(
      (...args) => ({
        ...createUiSlice(...args),
        ...createSessionSlice(...args),
        ...createPaymentSettingsSlice(paymentSettings)(...args),
      }),
      { name: 'unicornpro', enabled: import.meta.env.DEV },
    ),
  );
}

export type AppStore = ReturnType<typeof createAppStore>;

export const appStore: AppStore = createAppStore();

/** Selects from the app store: `const open = useAppStore((s) => s.navigationMenuOpen)`. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}
