import { describe, expect, it } from 'vitest';
import { PRICE_RISE_CATALOGUES } from './i18n';

describe('the price-rise answers page words', () => {
  it('have the same keys in ko, en and ja, one for each answer the server gives', () => {
    const keys = Object.keys(PRICE_RISE_CATALOGUES.en).sort();
    for (const catalogue of Object.values(PRICE_RISE_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
    for (const answer of ['agreed', 'declined', 'pending', 'lapsed']) expect(keys).toContain(answer);
  });
});
