import { describe, expect, it } from 'vitest';
import { ADMIN_CATALOGUES } from './i18n';

describe('the back office catalogues', () => {
  it('have the same keys in ko, en and ja, none empty', () => {
    const keys = Object.keys(ADMIN_CATALOGUES.en).sort();
    for (const catalogue of Object.values(ADMIN_CATALOGUES)) {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      expect(Object.values(catalogue).every((text) => text.trim().length > 0)).toBe(true);
    }
  });
});
