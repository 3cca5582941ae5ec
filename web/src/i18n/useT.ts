import { use } from 'react';
import { useLang } from '../routing/useLang';
import {
  loadCatalogue,
  loadedCatalogue,
  loadedShellCatalogue,
  loadShellCatalogue,
  type Catalogue,
  type ShellCatalogue,
} from './catalogues';

/**
 * The whole catalogue of the language in the URL, for pages: `const t = useT(); t.purchase.heading`. A part not
 * loaded yet suspends the component until its chunk arrives (router navigations are transitions, so the page shown
 * stays until then).
 */
export function useT(): Catalogue {
  const lang = useLang();
  return loadedCatalogue(lang) ?? use(loadCatalogue(lang));
}

/**
 * Only the shell part (header, menu, footer, banners, loading and error views, home page), for what the first load
 * draws: it never waits for the pages part.
 */
export function useShellT(): ShellCatalogue {
  const lang = useLang();
  return loadedShellCatalogue(lang) ?? use(loadShellCatalogue(lang));
}
