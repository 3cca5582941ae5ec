import { use } from 'react';
import { useLang } from '../routing/useLang';
import { loadCatalogue, loadedCatalogue, type Catalogue } from './catalogues';

/**
 * The catalogue of the language in the URL: `const t = useT(); t.header.purchase`. A language not loaded yet
 * suspends the component until its chunk arrives (router navigations are transitions, so the page shown stays
 * until then).
 */
export function useT(): Catalogue {
  const lang = useLang();
  return loadedCatalogue(lang) ?? use(loadCatalogue(lang));
}
