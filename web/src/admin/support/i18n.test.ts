import { describe, expect, it } from 'vitest';
import { SUPPORT_CATALOGUES } from './i18n';

describe('the support desk catalogues', () => {
  it('have the same keys in ko, en and ja, none empty, with the same placeholders', () => {
    const keys = Object.keys(SUPPORT_CATALOGUES.en).sort();
    for (const catalogue of Object.values(SUPPORT_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    for (const key of keys as (keyof typeof SUPPORT_CATALOGUES.en)[]) {
      expect(placeholders(SUPPORT_CATALOGUES.ko[key])).toEqual(placeholders(SUPPORT_CATALOGUES.en[key]));
      expect(placeholders(SUPPORT_CATALOGUES.ja[key])).toEqual(placeholders(SUPPORT_CATALOGUES.en[key]));
    }
  });
});
