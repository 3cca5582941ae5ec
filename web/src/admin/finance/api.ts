/** Finance's calls (under /staff/finance); the shapes they answer come from the generated OpenAPI schema. */
import type { components } from '../../api/schema';
import { staffCall } from '../api';

export const FINANCE_BASE = '/web/unicornpro/v1/staff/finance';

export type Ledger = components['schemas']['LedgerOut'];
export type SeriesRow = components['schemas']['LedgerSeriesRow'];
export type BreakdownRow = components['schemas']['LedgerBreakdownRow'];
export type Entry = components['schemas']['LedgerEntryOut'];
export type PaymentDetail = components['schemas']['LedgerPaymentOut'];
export type Mismatch = components['schemas']['MismatchOut'];
export type ReconciliationDay = components['schemas']['ReconciliationDayOut'];
export type Job = components['schemas']['FinanceJobOut'];
export type JobStarted = components['schemas']['JobStarted'];
export type Alarm = components['schemas']['AlarmOut'];
export type Integrity = components['schemas']['IntegrityOut'];
export type Compared = components['schemas']['AsOfOut'];
export type StaffAction = components['schemas']['StaffActionOut'];

export function financeCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  return staffCall<T>(method, `/finance${path}`, body);
}

export function query(params: Record<string, string | undefined>): string {
  const kept = Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
}

/** A file the API offers as an attachment: a plain link, so the browser downloads it with the session cookie. */
export function fileUrl(path: string): string {
  return `${FINANCE_BASE}${path}`;
}
