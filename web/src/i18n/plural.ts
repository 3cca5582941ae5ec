/**
 * Catalogue texts that change with a count: "1 device", "2 devices". Each language gives one form
 * per plural category its Intl.PluralRules uses (en: one and other; ko and ja: other only, as they
 * do not inflect), and the count picks the form.
 */
import { format } from './catalogues';
import type { Lang } from './languages';

/** Forms of a counted text by plural category; `other` is always there. */
export type Plural = { other: string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>;

const CATEGORIES = new Set<string>(['zero', 'one', 'two', 'few', 'many', 'other']);

/** Whether a catalogue node is a counted text rather than a group of texts. */
export function isPlural(node: unknown): node is Plural {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const keys = Object.keys(node);
  return keys.includes('other') && keys.every((key) => CATEGORIES.has(key));
}

const rules = new Map<Lang, Intl.PluralRules>();

function pluralRules(lang: Lang): Intl.PluralRules {
  let found = rules.get(lang);
  if (!found) {
    found = new Intl.PluralRules(lang);
    rules.set(lang, found);
  }
  return found;
}

/** The plural categories a language's texts must give forms for. */
export function pluralCategories(lang: Lang): string[] {
  return [...pluralRules(lang).resolvedOptions().pluralCategories];
}

/**
 * The form of `text` for `count` in `lang`, with `{count}` and the other placeholders filled:
 * `formatCount('en', t.purchase.devices, 1)` is "1 device".
 */
export function formatCount(lang: Lang, text: Plural, count: number, values: Record<string, string | number> = {}): string {
  const form = text[pluralRules(lang).select(count)] ?? text.other;
  return format(form, { count, ...values });
}
