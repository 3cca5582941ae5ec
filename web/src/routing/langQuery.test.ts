import { describe, expect, it } from 'vitest';
import { applyLangQuery, queriedLanguage, withoutLangQuery } from './langQuery';

describe('the lang query parameter', () => {
  it('names a supported language in any case', () => {
    expect(queriedLanguage('?lang=EN')).toBe('en');
    expect(queriedLanguage('?lang=fr')).toBeUndefined();
    expect(queriedLanguage('?code=A')).toBeUndefined();
  });

  it('opens the same page in that language and is dropped from the address, other parameters kept', () => {
    expect(applyLangQuery('/ko/purchase', '?lang=ja&code=SPRING', '#plans')).toBe('/ja/purchase?code=SPRING#plans');
    expect(applyLangQuery('/purchase', '?lang=en')).toBe('/en/purchase');
    expect(applyLangQuery('/', '?lang=ja')).toBe('/ja');
  });

  it('leaves the location alone when it asks for nothing usable', () => {
    expect(applyLangQuery('/ko/purchase', '?lang=xx')).toBeUndefined();
    expect(withoutLangQuery('?lang=en')).toBe('');
  });
});
