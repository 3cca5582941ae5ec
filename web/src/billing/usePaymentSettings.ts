/** The payment settings for a component: null while the one fetch of the page life is under way. */
import { useEffect } from 'react';
import type { PaymentSettings } from '../api/models';
import { appStore, useAppStore } from '../store';

export function usePaymentSettings(): PaymentSettings | null {
  const settings = useAppStore((s) => s.paymentSettings);
  useEffect(() => {
    // Started at start-up already; this only asks again after a failed fetch.
    if (!settings) void appStore.getState().loadPaymentSettings().catch(() => undefined);
  }, [settings]);
  return settings;
}
