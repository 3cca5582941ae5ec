import { useLang } from '../routing/useLang';
import { catalogues, type Catalogue } from './catalogues';

/** The catalogue of the language in the URL: `const t = useT(); t.header.purchase`. */
export function useT(): Catalogue {
  return catalogues[useLang()];
}
