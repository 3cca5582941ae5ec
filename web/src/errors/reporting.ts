/**
 * Error reporting in the browser, as on the server (spec section 9): traces sampled at 0.1, 30
 * breadcrumbs, transactions named 404 dropped, a server error (HTTP 500) reported as a warning, and
 * nothing that could carry a token, a password or a card detail leaves the page. Off without a DSN.
 * This module pulls in @sentry/browser, so the app imports it dynamically, and only when a DSN is set.
 */
import * as Sentry from '@sentry/browser';
import type { Breadcrumb, BrowserOptions, ErrorEvent, EventHint } from '@sentry/browser';
import { ApiError } from '../api/client';
import { NOT_FOUND_EVENT, showingNotFound } from './notFound';

type TransactionEvent = Parameters<NonNullable<BrowserOptions['beforeSendTransaction']>>[0];

export const TRACES_SAMPLE_RATE = 0.1;
export const MAX_BREADCRUMBS = 30;
const NOT_FOUND_NAME = '404';
const IGNORED_TRANSACTION_NAMES = new Set([NOT_FOUND_NAME]);
const FILTERED = '[Filtered]';

/** Field and query names (any depth, any case) whose values are never sent: tokens, passwords, card details. */
export const SENSITIVE_FIELDS = new Set([
  'pw',
  'newpw',
  'currentpw',
  'password',
  'pwd',
  'pwd_2digit',
  'cardnumber',
  'card_number',
  'cardpassword',
  'card_password',
  'expiry',
  'expirymonth',
  'expiryyear',
  'validity',
  'birth',
  'rt',
  'refresh_token',
  'refreshtoken',
  'accesstoken',
  'access_token',
  'authorization',
  'cookie',
  'zendeskjwt',
  'jwt',
  'memberhash',
  't',
  'token',
]);

const isSensitive = (name: string) => SENSITIVE_FIELDS.has(name.toLowerCase());

/** An address with the values of sensitive query parameters replaced. */
export function scrubUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const hash = url.indexOf('#', query);
  const end = hash < 0 ? url.length : hash;
  const params = new URLSearchParams(url.slice(query + 1, end));
  for (const name of [...params.keys()]) {
    if (isSensitive(name)) params.set(name, FILTERED);
  }
  return `${url.slice(0, query)}?${params.toString()}${url.slice(end)}`;
}

/** A copy of `value` with sensitive fields filtered at any depth and addresses' sensitive queries filtered. */
export function scrub<T>(value: T, depth = 0): T {
  if (depth > 12) return value;
  if (typeof value === 'string') return (/^(https?:\/\/|\/)[^\s]*\?/.test(value) ? scrubUrl(value) : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrub(item, depth + 1)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    copy[name] = isSensitive(name) ? FILTERED : scrub(field, depth + 1);
  }
  return copy as T;
}

/** Every error event: a server error (HTTP 5xx answer) becomes a warning, then everything is scrubbed. */
export function beforeSend(event: ErrorEvent, hint: EventHint): ErrorEvent {
  const original = hint.originalException;
  const serverError = original instanceof ApiError && (original.status ?? 0) >= 500;
  return scrub(serverError ? { ...event, level: 'warning' } : event);
}

/** Transactions named 404 are not worth tracing; the rest are scrubbed. */
export function beforeSendTransaction(event: TransactionEvent): TransactionEvent | null {
  if (event.transaction !== undefined && IGNORED_TRANSACTION_NAMES.has(event.transaction)) return null;
  return scrub(event);
}

/** Breadcrumbs (fetches, navigations, console) keep no token in their addresses or data. */
export function beforeBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  return scrub(breadcrumb);
}

/** The SDK's options for a DSN, or null when reporting is off. */
export function reportingOptions(dsn: string, environment: string): BrowserOptions | null {
  if (!dsn) return null;
  return {
    dsn,
    environment: environment || undefined,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    maxBreadcrumbs: MAX_BREADCRUMBS,
    // No user details, cookies, headers or bodies: only what the scrubbed event itself says.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [] },
    integrations: [Sentry.browserTracingIntegration()],
    beforeSend,
    beforeSendTransaction,
    beforeBreadcrumb,
  };
}

/** Starts reporting when a DSN is given; returns whether it is on. */
export function startErrorReporting({ sentryDsn, sentryEnvironment }: { sentryDsn: string; sentryEnvironment: string }): boolean {
  const options = reportingOptions(sentryDsn, sentryEnvironment);
  if (!options) return false;
  Sentry.init(options);
  const nameNotFound = () => {
    const span = Sentry.getActiveSpan();
    if (span) Sentry.updateSpanName(Sentry.getRootSpan(span), NOT_FOUND_NAME);
  };
  window.addEventListener(NOT_FOUND_EVENT, nameNotFound);
  if (showingNotFound()) nameNotFound();
  return true;
}
