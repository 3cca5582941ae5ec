import { describe, expect, it } from 'vitest';
import { pickByCountry, pickLocalization } from './localization';

const ko = { langCode: 'ko', text: '안녕' };
const en = { langCode: 'en', text: 'Hello' };
const ja = { langCode: 'ja', text: 'こんにちは' };

describe('pickLocalization: chosen language, then en, then ko', () => {
  it('takes the chosen language', () => {
    expect(pickLocalization([ko, en, ja], 'ja')).toBe(ja);
  });

  it('falls back to en, then ko', () => {
    expect(pickLocalization([ko, en], 'ja')).toBe(en);
    expect(pickLocalization([ko], 'ja')).toBe(ko);
    expect(pickLocalization([ko, en], 'ko')).toBe(ko);
  });

  it('gives nothing without a usable entry', () => {
    expect(pickLocalization([{ langCode: 'fr', text: 'Salut' }], 'en')).toBeUndefined();
    expect(pickLocalization([], 'ko')).toBeUndefined();
    expect(pickLocalization(null, 'ko')).toBeUndefined();
  });

  it('ignores the case of the language code', () => {
    expect(pickLocalization([{ langCode: 'EN', text: 'x' }], 'ja')?.text).toBe('x');
  });
});

describe('pickByCountry: chosen country, then US, then KR', () => {
  const kr = { countryCode: 'KR', price: 39000 };
  const us = { countryCode: 'US', price: 2999 };
  it('falls back in order', () => {
    expect(pickByCountry([kr, us], 'kr')).toBe(kr);
    expect(pickByCountry([kr, us], 'JP')).toBe(us);
    expect(pickByCountry([kr], 'JP')).toBe(kr);
    expect(pickByCountry([], 'JP')).toBeUndefined();
  });
});
