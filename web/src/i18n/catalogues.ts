/**
 * The catalogues, loaded one language at a time and in two parts. The shell part (header, menu, footer, banners,
 * loading and error views, the home page) of Korean, the default, is part of the first load; the pages part (every
 * other page's texts) and other languages' parts are chunks fetched when first needed. main.tsx waits for the URL's
 * shell part before the first render, and a page's code preload fetches its pages part beside it, so no key or
 * other language ever flashes.
 */
import type { Catalogue, PagesCatalogue, ShellCatalogue } from './catalogue';
import type { Lang } from './languages';
import { koShell } from './shell/ko';

export type { Catalogue, PagesCatalogue, ShellCatalogue };

/** Loads each part once per language; every caller gets the same promise, so React's `use` can wait on it. */
function partLoader<Part>(importers: Record<Lang, () => Promise<Part>>, loaded: Partial<Record<Lang, Part>>) {
  const loading = new Map<Lang, Promise<Part>>();
  return (lang: Lang): Promise<Part> => {
    let promise = loading.get(lang);
    if (!promise) {
      promise = importers[lang]().then((part) => (loaded[lang] = part));
      // A failed chunk load is not remembered, so the next render tries again.
      promise.catch(() => loading.delete(lang));
      loading.set(lang, promise);
    }
    return promise;
  };
}

const shells: Partial<Record<Lang, ShellCatalogue>> = { ko: koShell };
const pages: Partial<Record<Lang, PagesCatalogue>> = {};
const whole: Partial<Record<Lang, Catalogue>> = {};

const loadShell = partLoader<ShellCatalogue>(
  {
    ko: () => Promise.resolve(koShell),
    en: () => import('./shell/en').then((module) => module.enShell),
    ja: () => import('./shell/ja').then((module) => module.jaShell),
  },
  shells,
);

const loadPages = partLoader<PagesCatalogue>(
  {
    ko: () => import('./pages/ko').then((module) => module.koPages),
    en: () => import('./pages/en').then((module) => module.enPages),
    ja: () => import('./pages/ja').then((module) => module.jaPages),
  },
  pages,
);

/** The shell part of `lang` if it is already loaded. */
export function loadedShellCatalogue(lang: Lang): ShellCatalogue | undefined {
  return shells[lang];
}

/** Loads the shell part of `lang` once (the first render waits for it). */
export function loadShellCatalogue(lang: Lang): Promise<ShellCatalogue> {
  return loadShell(lang);
}

/** The whole catalogue of `lang` if both its parts are loaded (always the same object). */
export function loadedCatalogue(lang: Lang): Catalogue | undefined {
  const shell = shells[lang];
  const pagePart = pages[lang];
  if (!shell || !pagePart) return undefined;
  return (whole[lang] ??= { ...shell, ...pagePart });
}

const wholeLoading = new Map<Lang, Promise<Catalogue>>();

/** Loads both parts of `lang` once; every caller gets the same promise, so React's `use` can wait on it. */
export function loadCatalogue(lang: Lang): Promise<Catalogue> {
  let promise = wholeLoading.get(lang);
  if (!promise) {
    promise = Promise.all([loadShell(lang), loadPages(lang)]).then(() => loadedCatalogue(lang) as Catalogue);
    promise.catch(() => wholeLoading.delete(lang));
    wholeLoading.set(lang, promise);
  }
  return promise;
}

/** Fills `{name}` placeholders of a catalogue text. Unknown placeholders are left as they are. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
