import { describe, expect, it } from 'vitest';
import { TAX_INVOICES_CATALOGUES } from './i18n';

describe('the tax-invoice queue catalogues', () => {
  it('have the same keys in ko, en and ja, none empty', () => {
    const keys = Object.keys(TAX_INVOICES_CATALOGUES.en).sort();
    for (const catalogue of Object.values(TAX_INVOICES_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
  });
});
