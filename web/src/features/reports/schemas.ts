/**
 * The report form (spec sections 3 and 5): what it checks before sending, and the multipart body it sends,
 * with only the non-empty fields and the filter list only when a filter is chosen. Messages are keys of
 * `report.validation` in the catalogues.
 */
import { EMAIL_RULE } from '../../forms/fields';
import { z } from '../../forms/zod';
import { PROBLEMS, PRODUCT_OS, isReportProduct } from './products';

export type ReportRuleKey = 'required' | 'email' | 'url' | 'urlRequired' | 'checked' | 'tooLong' | 'product' | 'problem';
const key = (name: ReportRuleKey) => name;

/** An address as typed, with https:// in front when it names no scheme ("m.news.example/1"). */
export function withScheme(url: string): string {
  const trimmed = url.trim();
  return trimmed === '' || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** An http or https address with a host. */
export function isWebAddress(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().max(max, key('tooLong'));

export const reportSchema = z
  .object({
    product: z.string().refine(isReportProduct, key('product')),
    problem: z.enum(PROBLEMS, { message: key('problem') }),
    url: text(2048),
    application: z.string(),
    applicationEtc: text(200),
    adult: z.boolean(),
    filters: z.array(z.string()),
    customFilters: text(20_000),
    version: text(100),
    deviceModel: text(100),
    osVersion: text(100),
    comment: text(5000),
    email: z
      .string()
      .trim()
      .refine((value) => value === '' || EMAIL_RULE.test(value), key('email')),
    checked: z.boolean().refine((value) => value, key('checked')),
  })
  .superRefine((form, context) => {
    if (form.url === '' && form.problem !== 'bug') {
      context.addIssue({ code: 'custom', path: ['url'], message: key('urlRequired') });
    } else if (form.url !== '' && !isWebAddress(withScheme(form.url))) {
      context.addIssue({ code: 'custom', path: ['url'], message: key('url') });
    }
  });

export type ReportFormInput = z.input<typeof reportSchema>;
export type ReportFormValues = z.output<typeof reportSchema>;

export const EMPTY_REPORT: ReportFormInput = {
  product: '',
  problem: 'ad',
  url: '',
  application: '',
  applicationEtc: '',
  adult: false,
  filters: [],
  customFilters: '',
  version: '',
  deviceModel: '',
  osVersion: '',
  comment: '',
  email: '',
  checked: false,
};

/** The multipart body of POST /reports: only non-empty fields, the filters only when one is chosen. */
export function reportBody(form: ReportFormValues, images: readonly File[]): FormData {
  const product = form.product as keyof typeof PRODUCT_OS;
  const fields: Record<string, string> = {
    product,
    problem: form.problem,
    url: withScheme(form.url),
    comment: form.comment,
    email: form.email,
    adult: form.adult ? 'true' : '',
    application: form.application,
    applicationEtc: form.application === 'etc' ? form.applicationEtc : '',
    filters: form.filters.join(','),
    customFilters: form.customFilters
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    version: form.version,
    deviceModel: form.deviceModel,
    os: PRODUCT_OS[product],
    osVersion: form.osVersion,
    checked: form.checked ? 'true' : '',
  };
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== '') body.append(name, value);
  }
  for (const image of images) body.append('images', image, image.name);
  return body;
}
