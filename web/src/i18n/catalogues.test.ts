import { describe, expect, it } from 'vitest';
import { format, loadCatalogue, loadedCatalogue, loadedShellCatalogue, loadShellCatalogue } from './catalogues';
import { en } from './en';
import { ja } from './ja';
import { ko } from './ko';
import { koPages } from './pages/ko';
import { jaShell } from './shell/ja';
import { koShell } from './shell/ko';
import { LANGUAGES } from './languages';
import { isPlural } from './plural';

/**
 * Every text of a nested catalogue, keyed by its dotted path. A counted text is one text: its
 * forms follow each language's plural rules (checked in plural.test.ts), not the Korean keys.
 */
function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (isPlural(node)) {
    const forms = Object.values(node);
    found.set(prefix, forms.every((form) => typeof form === 'string' && form.trim() !== '') ? forms.join(' | ') : '');
    return found;
  }
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, child] of Object.entries(node)) {
      for (const [path, value] of leaves(child, prefix ? `${prefix}.${key}` : key)) {
        found.set(path, value);
      }
    }
  } else {
    found.set(prefix, node);
  }
  return found;
}

const catalogues = { ko, en, ja };

const keysOf = (catalogue: unknown) => [...leaves(catalogue).keys()].sort();

describe('catalogues', () => {
  it.each(LANGUAGES)('%s has exactly the keys of the Korean catalogue', (lang) => {
    expect(keysOf(catalogues[lang])).toEqual(keysOf(catalogues.ko));
  });

  it.each(LANGUAGES)('%s holds only non-empty strings', (lang) => {
    const bad = [...leaves(catalogues[lang])]
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(bad).toEqual([]);
  });

  it('notices an extra or a missing key', () => {
    expect(keysOf({ ...catalogues.en, extra: { only: 'here' } })).not.toEqual(keysOf(catalogues.ko));
    const { errors: _dropped, ...withoutErrors } = catalogues.ja;
    expect(keysOf(withoutErrors)).not.toEqual(keysOf(catalogues.ko));
  });

  it('has the loading text the spec names', () => {
    expect(catalogues.ko.common.loadingPage).toBe('페이지를 불러오는 중입니다.');
    expect(catalogues.en.common.loadingPage).toBe('Loading the page.');
  });
});

describe('loading', () => {
  it("has Korean's shell part at once and fetches the pages part and other languages once, when first asked", async () => {
    expect(loadedShellCatalogue('ko')).toBe(koShell);
    expect(loadedCatalogue('ko')).toBeUndefined();
    expect(loadedShellCatalogue('ja')).toBeUndefined();
    const shell = loadShellCatalogue('ja');
    expect(loadShellCatalogue('ja')).toBe(shell);
    await expect(shell).resolves.toBe(jaShell);
    expect(loadedCatalogue('ja')).toBeUndefined();
    const first = loadCatalogue('ja');
    expect(loadCatalogue('ja')).toBe(first);
    await expect(first).resolves.toEqual(ja);
    expect(loadedCatalogue('ja')).toBe(await first);
  });

  it('keeps the parts apart: the shell part holds no page but home', () => {
    expect(Object.keys(koShell).sort()).toEqual(
      ['banners', 'common', 'errors', 'footer', 'header', 'home', 'menu', 'meta', 'notFound'].sort(),
    );
    expect(Object.keys(koPages)).not.toContain('home');
  });
});

describe('format', () => {
  it('fills named placeholders and leaves unknown ones', () => {
    expect(format('{page} | {brand} {x}', { page: 'Log in', brand: 'Unicorn' })).toBe('Log in | Unicorn {x}');
  });
});
