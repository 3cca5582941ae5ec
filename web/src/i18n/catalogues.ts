/**
 * The catalogues, loaded one language at a time: Korean, the default, is part of the first load; English and
 * Japanese are separate chunks fetched when a page in that language is first shown (main.tsx waits for the
 * URL's language before the first render, so no key or other language ever flashes).
 */
import { ko, type Catalogue } from './ko';
import type { Lang } from './languages';

export type { Catalogue };

const importers: Record<Lang, () => Promise<Catalogue>> = {
  ko: () => Promise.resolve(ko),
  en: () => import('./en').then((module) => module.en),
  ja: () => import('./ja').then((module) => module.ja),
};

const loaded: Partial<Record<Lang, Catalogue>> = { ko };
const loading = new Map<Lang, Promise<Catalogue>>();

/** The catalogue of `lang` if it is already loaded. */
export function loadedCatalogue(lang: Lang): Catalogue | undefined {
  return loaded[lang];
}

/** Loads the catalogue of `lang` once; every caller gets the same promise, so React's `use` can wait on it. */
export function loadCatalogue(lang: Lang): Promise<Catalogue> {
  let promise = loading.get(lang);
  if (!promise) {
    promise = importers[lang]().then((catalogue) => (loaded[lang] = catalogue));
    // A failed chunk load is not remembered, so the next render tries again.
    promise.catch(() => loading.delete(lang));
    loading.set(lang, promise);
  }
  return promise;
}

/** Fills `{name}` placeholders of a catalogue text. Unknown placeholders are left as they are. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
