/**
 * The apps a report can be about (spec section 1), and where their filter groups come from (section 3):
 * the Pro apps' from the server, the basic apps' from the local defaults.
 */
export const REPORT_PRODUCTS = ['uncea', 'uncei', 'uncem', 'uncpa', 'uncpw', 'uncpi', 'uncpm'] as const;
export type ReportProduct = (typeof REPORT_PRODUCTS)[number];

/** Products whose filter groups the server serves (GET /reports/filter-groups). */
export const SERVER_FILTER_PRODUCTS: readonly ReportProduct[] = ['uncpa', 'uncpw', 'uncpi', 'uncpm'];

/** The `os` a report of each app carries (the web form does not ask: the app says it). */
export const PRODUCT_OS: Record<ReportProduct, string> = {
  uncea: 'android',
  uncpa: 'android',
  uncei: 'ios',
  uncpi: 'ios',
  uncem: 'mac',
  uncpm: 'mac',
  uncpw: 'windows',
};

export function isReportProduct(value: string): value is ReportProduct {
  return (REPORT_PRODUCTS as readonly string[]).includes(value);
}

/** Browsers and apps an ad can show in; `etc` asks for the name. */
export const APPLICATIONS = ['chrome', 'samsung', 'safari', 'naver', 'whale', 'edge', 'firefox', 'etc'] as const;
export type Application = (typeof APPLICATIONS)[number];

export const PROBLEMS = ['ad', 'misblock', 'bug'] as const;
export type Problem = (typeof PROBLEMS)[number];
