import { describe, expect, it } from 'vitest';
import { catalogues } from '../test/catalogues';
import { LANGUAGES } from './languages';
import { formatCount, isPlural, pluralCategories } from './plural';

/** Every counted text of a catalogue, by its dotted path. */
function pluralsOf(node: unknown, prefix = ''): Map<string, Record<string, string>> {
  const found = new Map<string, Record<string, string>>();
  if (isPlural(node)) {
    found.set(prefix, node as Record<string, string>);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) {
      for (const [path, value] of pluralsOf(child, prefix ? `${prefix}.${key}` : key)) found.set(path, value);
    }
  }
  return found;
}

describe('counted texts', () => {
  it('read naturally in English, and the same for every count in Korean and Japanese', () => {
    expect(formatCount('en', catalogues.en.purchase.devices, 1)).toBe('1 device');
    expect(formatCount('en', catalogues.en.purchase.devices, 2)).toBe('2 devices');
    expect(formatCount('en', catalogues.en.purchase.periods.days, 1)).toBe('1 day');
    expect(formatCount('en', catalogues.en.purchase.periods.days, 90)).toBe('90 days');
    expect(formatCount('en', catalogues.en.licences.devicesCount, 1, { used: 0 })).toBe('0 of 1 device');
    expect(formatCount('en', catalogues.en.licences.devicesCount, 3, { used: 1 })).toBe('1 of 3 devices');
    expect(formatCount('ko', catalogues.ko.purchase.devices, 1)).toBe('기기 1대');
    expect(formatCount('ko', catalogues.ko.purchase.devices, 2)).toBe('기기 2대');
    expect(formatCount('ja', catalogues.ja.purchase.devices, 1)).toBe('1台');
  });

  it('exist in every language', () => {
    const paths = [...pluralsOf(catalogues.ko).keys()].sort();
    expect(paths.length).toBeGreaterThan(0);
    for (const lang of LANGUAGES) expect([...pluralsOf(catalogues[lang]).keys()].sort()).toEqual(paths);
  });

  it.each(LANGUAGES)('give %s exactly the forms its plural rules use', (lang) => {
    const categories = pluralCategories(lang).sort();
    for (const [path, forms] of pluralsOf(catalogues[lang])) {
      expect([path, Object.keys(forms).sort()]).toEqual([path, categories]);
    }
  });

  it('falls back to the other form when a category is missing', () => {
    expect(formatCount('en', { other: '{count} items' }, 1)).toBe('1 items');
  });
});
