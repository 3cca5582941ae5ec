import { describe, expect, it } from 'vitest';
import { CATALOGUE_WORDS } from './i18n';

describe('the catalogue page words', () => {
  it('have the same keys in ko, en and ja, none empty', () => {
    const keys = Object.keys(CATALOGUE_WORDS.en).sort();
    for (const words of Object.values(CATALOGUE_WORDS)) {
      expect(Object.keys(words).sort()).toEqual(keys);
      expect(Object.values(words).every((text) => text.trim().length > 0)).toBe(true);
    }
  });
});
