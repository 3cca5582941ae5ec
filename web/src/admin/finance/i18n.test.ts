import { describe, expect, it } from 'vitest';
import { FINANCE_CATALOGUES, money } from './i18n';

describe("finance's catalogues", () => {
  it('have the same keys in ko, en and ja, none empty', () => {
    const keys = Object.keys(FINANCE_CATALOGUES.en).sort();
    for (const catalogue of Object.values(FINANCE_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
  });

  it('write minor units as the currency does', () => {
    expect(money(12000, 'KRW', 'en')).toBe('₩12,000');
    expect(money(4999, 'USD', 'en')).toBe('$49.99');
  });
});
