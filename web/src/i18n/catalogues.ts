import { en } from './en';
import { ja } from './ja';
import { ko, type Catalogue } from './ko';
import type { Lang } from './languages';

export type { Catalogue };

export const catalogues: Record<Lang, Catalogue> = { ko, en, ja };

/** Fills `{name}` placeholders of a catalogue text. Unknown placeholders are left as they are. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
