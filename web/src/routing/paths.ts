/**
 * The one place where app paths are built. Every path starts with /{lang}; query parameters that
 * must survive navigation (the coupon `code`) are carried over from the current location.
 */
import { isLang, type Lang } from '../i18n/languages';

/** Query parameters that links built by the app carry along when the current URL has them. */
export const CARRIED_QUERY_PARAMS = ['code'] as const;

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface PathContext {
  lang: Lang;
  /** Current location.search, source of the carried parameters. */
  search?: string;
}

function buildQuery(search: string | undefined, query: Query | undefined): string {
  const current = new URLSearchParams(search ?? '');
  const next = new URLSearchParams();
  for (const name of CARRIED_QUERY_PARAMS) {
    const value = current.get(name);
    if (value !== null && value !== '') next.set(name, value);
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    next.set(name, String(value));
  }
  const text = next.toString();
  return text ? `?${text}` : '';
}

function build(ctx: PathContext, segments: readonly (string | number)[], query?: Query): string {
  const rest = segments.map((segment) => `/${encodeURIComponent(String(segment))}`).join('');
  return `/${ctx.lang}${rest}${buildQuery(ctx.search, query)}`;
}

/** Builders for every route of the app. Add new routes here, never as string literals elsewhere. */
export const paths = {
  home: (ctx: PathContext) => build(ctx, []),
  purchase: (ctx: PathContext) => build(ctx, ['purchase']),
  login: (ctx: PathContext, query?: { return_to?: string; email?: string }) => build(ctx, ['login'], query),
  license: (ctx: PathContext, query?: { userLicenseKey?: string; email?: string }) =>
    build(ctx, ['license'], query),
  privacyPolicy: (ctx: PathContext) => build(ctx, ['terms', 'privacy']),
  terms: (ctx: PathContext) => build(ctx, ['terms', 'service']),
  lifetimePolicy: (ctx: PathContext) => build(ctx, ['terms', 'lifetime']),
  subscriptionPolicy: (ctx: PathContext) => build(ctx, ['terms', 'subscription']),
  /** 特定商取引法に基づく表記: Japanese whatever the current language (Japan's law asks for it in Japanese). */
  tokushoho: (ctx: PathContext) => build({ ...ctx, lang: 'ja' }, ['legal', 'tokushoho']),
  releaseNotes: (ctx: PathContext) => build(ctx, ['release-notes']),
  report: (ctx: PathContext) => build(ctx, ['report']),
  register: (ctx: PathContext, query?: { userLicenseKey?: string; email?: string }) =>
    build(ctx, ['register'], query),
  registerAuth: (ctx: PathContext) => build(ctx, ['register', 'auth']),
  registerClaim: (ctx: PathContext, query?: { t?: string }) => build(ctx, ['register', 'claim'], query),
  registerConfirm: (ctx: PathContext, query?: { email?: string; localeCode?: string }) =>
    build(ctx, ['register', 'confirm'], query),
  emailAuth: (ctx: PathContext, query?: { email?: string }) => build(ctx, ['email-auth'], query),
  passwordFind: (ctx: PathContext) => build(ctx, ['password', 'find']),
  passwordFindAuth: (ctx: PathContext, query?: { email?: string }) => build(ctx, ['password', 'find', 'auth'], query),
  passwordReset: (ctx: PathContext, query?: { t?: string }) => build(ctx, ['password', 'reset'], query),
  passwordResetConfirm: (ctx: PathContext) => build(ctx, ['password', 'reset', 'confirm']),
  account: (ctx: PathContext) => build(ctx, ['account']),
  accountDelete: (ctx: PathContext) => build(ctx, ['account', 'delete']),
  accountDeleteConfirm: (ctx: PathContext, query?: { email?: string }) =>
    build(ctx, ['account', 'delete', 'confirm'], query),
  emailChangeConfirm: (ctx: PathContext, query?: { t?: string }) =>
    build(ctx, ['account', 'email-change', 'confirm'], query),
  purchaseHistory: (ctx: PathContext) => build(ctx, ['purchase-history']),
  purchaseHistoryDetail: (ctx: PathContext, merchantUid: string) => build(ctx, ['purchase-history', merchantUid]),
  licenseDetail: (ctx: PathContext, userLicenseId: string | number) => build(ctx, ['license', userLicenseId]),
  licenseUpgrade: (ctx: PathContext, userLicenseId: string | number) =>
    build(ctx, ['license', userLicenseId, 'upgrade']),
  paymentConfirm: (ctx: PathContext, query?: Record<string, string | undefined>) =>
    build(ctx, ['payment', 'confirm'], query),
  paymentFailure: (ctx: PathContext, licenseId: string | number, query?: { errorCode?: string | number }) =>
    build(ctx, ['payment', licenseId], query),
  accountName: (ctx: PathContext, query?: { zendesk_url?: string }) => build(ctx, ['account', 'name'], query),
  ssoZendesk: (ctx: PathContext, query?: { zendesk_url?: string }) => build(ctx, ['sso', 'zendesk'], query),
} satisfies Record<string, (ctx: PathContext, ...args: never[]) => string>;

/** Route patterns relative to /:lang, for the router. Keep in step with `paths`. */
export const routePatterns = {
  purchase: 'purchase',
  login: 'login',
  license: 'license',
  privacyPolicy: 'terms/privacy',
  terms: 'terms/service',
  lifetimePolicy: 'terms/lifetime',
  subscriptionPolicy: 'terms/subscription',
  tokushoho: 'legal/tokushoho',
  releaseNotes: 'release-notes',
  report: 'report',
  register: 'register',
  registerAuth: 'register/auth',
  registerClaim: 'register/claim',
  registerConfirm: 'register/confirm',
  emailAuth: 'email-auth',
  passwordFind: 'password/find',
  passwordFindAuth: 'password/find/auth',
  passwordReset: 'password/reset',
  passwordResetConfirm: 'password/reset/confirm',
  account: 'account',
  accountDelete: 'account/delete',
  accountDeleteConfirm: 'account/delete/confirm',
  emailChangeConfirm: 'account/email-change/confirm',
  purchaseHistory: 'purchase-history',
  purchaseHistoryDetail: 'purchase-history/:merchantUid',
  licenseDetail: 'license/:userLicenseId',
  licenseUpgrade: 'license/:userLicenseId/upgrade',
  paymentConfirm: 'payment/confirm',
  paymentFailure: 'payment/:licenseId',
  accountName: 'account/name',
  ssoZendesk: 'sso/zendesk',
} as const;

export type Paths = typeof paths;

/** `paths` with the context filled in: `bound.purchase()`. */
export type BoundPaths = {
  [K in keyof Paths]: Paths[K] extends (ctx: PathContext, ...args: infer A) => string ? (...args: A) => string : never;
};

export function bindPaths(ctx: PathContext): BoundPaths {
  const bound: Record<string, unknown> = {};
  for (const [name, builder] of Object.entries(paths)) {
    bound[name] = (...args: unknown[]) => (builder as (c: PathContext, ...a: unknown[]) => string)(ctx, ...args);
  }
  return bound as BoundPaths;
}

/**
 * Where to send a URL whose first segment is not a supported language.
 * - `/EN/login` (a supported code in the wrong case) becomes `/en/login`;
 * - `/xx/login` (another two-letter code in the language position) becomes `/{lang}/login`;
 * - anything else gets `/{lang}` in front: `/purchase?code=A` becomes `/{lang}/purchase?code=A`.
 * The query string and hash are kept as they are.
 */
export function withLanguagePrefix(lang: Lang, pathname: string, search = '', hash = ''): string {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const first = segments[0];
  let target: Lang = lang;
  if (first !== undefined && isLang(first.toLowerCase())) {
    target = first.toLowerCase() as Lang;
    segments.shift();
  } else if (first !== undefined && /^[a-z]{2}$/i.test(first)) {
    segments.shift();
  }
  const rest = segments.map((segment) => `/${segment}`).join('');
  return `/${target}${rest}${search}${hash}`;
}
