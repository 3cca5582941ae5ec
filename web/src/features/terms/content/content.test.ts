import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../i18n/languages';
import { policyTexts, type PolicyDocument } from './index';

const shape = (lang: (typeof LANGUAGES)[number]) =>
  Object.fromEntries(
    (Object.entries(policyTexts[lang]) as [string, PolicyDocument][]).map(([name, doc]) => [
      name,
      doc.sections.map((section) => `${section.id}:${section.paragraphs.length}:${section.items?.length ?? 0}`),
    ]),
  );

describe('policy texts', () => {
  it.each(LANGUAGES)('%s has the sections, paragraphs and items of the Korean text', (lang) => {
    expect(shape(lang)).toEqual(shape('ko'));
  });

  it.each(LANGUAGES)('%s has no empty text and a yyyy-MM-dd date', (lang) => {
    for (const doc of Object.values(policyTexts[lang]) as PolicyDocument[]) {
      expect(doc.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(doc.intro.trim()).not.toBe('');
      for (const section of doc.sections) {
        for (const text of [section.heading, ...section.paragraphs, ...(section.items ?? [])]) {
          expect(text.trim()).not.toBe('');
        }
      }
    }
  });
});
