import { describe, expect, it } from 'vitest';
import { MARKETING_CATALOGUES } from './i18n';

describe("marketing's catalogues", () => {
  it('have the same keys in ko, en and ja, none empty', () => {
    const keys = Object.keys(MARKETING_CATALOGUES.en).sort();
    for (const catalogue of Object.values(MARKETING_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
  });
});
