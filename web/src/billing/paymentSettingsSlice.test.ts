import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../store';
import { dollarSettings, wonSettings } from '../test/paymentSettings';

describe('payment settings in the app store', () => {
  it('are fetched once however many parts of the app ask, and kept', async () => {
    const fetchSettings = vi.fn(async () => wonSettings);
    const store = createAppStore({ paymentSettings: fetchSettings });
    expect(store.getState().paymentSettings).toBeNull();

    const answers = await Promise.all([
      store.getState().loadPaymentSettings(),
      store.getState().loadPaymentSettings(),
      store.getState().loadPaymentSettings(),
    ]);
    await store.getState().loadPaymentSettings();

    expect(answers).toEqual([wonSettings, wonSettings, wonSettings]);
    expect(store.getState().paymentSettings).toEqual(wonSettings);
    expect(fetchSettings).toHaveBeenCalledTimes(1);
  });

  it('are asked for again after a failed fetch, and only then', async () => {
    const fetchSettings = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(dollarSettings);
    const store = createAppStore({ paymentSettings: fetchSettings });

    await expect(store.getState().loadPaymentSettings()).rejects.toThrow('offline');
    expect(store.getState().paymentSettings).toBeNull();
    await expect(store.getState().loadPaymentSettings()).resolves.toEqual(dollarSettings);
    await store.getState().loadPaymentSettings();

    expect(fetchSettings).toHaveBeenCalledTimes(2);
    expect(store.getState().paymentSettings?.currency).toBe('USD');
  });
});
