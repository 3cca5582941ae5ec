import { useLang } from '../routing/useLang';
import { formatCount, type Plural } from './plural';

/** Counted texts in the URL's language: `const count = useCount(); count(t.purchase.devices, 3)`. */
export function useCount(): (text: Plural, count: number, values?: Record<string, string | number>) => string {
  const lang = useLang();
  return (text, count, values) => formatCount(lang, text, count, values);
}
