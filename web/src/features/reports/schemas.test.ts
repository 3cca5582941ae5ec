import { describe, expect, it } from 'vitest';
import { EMPTY_REPORT, reportBody, reportSchema, withScheme, type ReportFormInput } from './schemas';

const filled = (changes: Partial<ReportFormInput>): ReportFormInput => ({
  ...EMPTY_REPORT,
  product: 'uncpm',
  url: 'news.example/article',
  checked: true,
  ...changes,
});

function issues(form: ReportFormInput): Record<string, string> {
  const parsed = reportSchema.safeParse(form);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the report form', () => {
  it('needs an app, the agreement, and for an ad or a misblock the page', () => {
    expect(issues({ ...EMPTY_REPORT })).toEqual({ product: 'product', url: 'urlRequired', checked: 'checked' });
    expect(issues(filled({ problem: 'misblock', url: '' }))).toEqual({ url: 'urlRequired' });
    expect(issues(filled({ problem: 'bug', url: '' }))).toEqual({});
  });

  it('checks the address and the email only when given', () => {
    expect(issues(filled({ url: 'javascript:alert(1)' }))).toEqual({ url: 'url' });
    expect(issues(filled({ email: 'mina@' }))).toEqual({ email: 'email' });
    expect(issues(filled({ email: 'mina@example.com', comment: 'x'.repeat(5001) }))).toEqual({ comment: 'tooLong' });
  });

  it('reads an address without a scheme as https', () => {
    expect(withScheme(' m.news.example/1 ')).toBe('https://m.news.example/1');
    expect(withScheme('http://news.example')).toBe('http://news.example');
  });

  it('sends only the non-empty fields, and the filters only when one is chosen', () => {
    const form = reportSchema.parse(filled({ comment: 'Banner', customFilters: ' a##b \n\n c ' }));
    const body = reportBody(form, [new File(['x'], 'shot.png', { type: 'image/png' })]);
    expect([...body.keys()]).toEqual([
      'product',
      'problem',
      'url',
      'comment',
      'customFilters',
      'os',
      'checked',
      'images',
    ]);
    expect(body.get('url')).toBe('https://news.example/article');
    expect(body.get('customFilters')).toBe('a##b\nc');
    expect(body.get('os')).toBe('mac');

    const chosen = reportSchema.parse(
      filled({ filters: ['301', '308'], adult: true, application: 'etc', applicationEtc: 'Opera', email: 'a@b.co' }),
    );
    const withFilters = reportBody(chosen, []);
    expect(withFilters.get('filters')).toBe('301,308');
    expect([withFilters.get('adult'), withFilters.get('applicationEtc')]).toEqual(['true', 'Opera']);
    expect(withFilters.has('images')).toBe(false);
    const notEtc = reportBody(reportSchema.parse(filled({ application: 'chrome', applicationEtc: 'Opera' })), []);
    expect(notEtc.has('applicationEtc')).toBe(false);
  });
});
