/** Finance's calls (under /staff/finance) and the shapes they answer. */
import { staffCall } from '../api';

export const FINANCE_BASE = '/web/unicornpro/v1/staff/finance';

export type Figures = { revenue: number; refunds: number; net: number; payments: number; refunded: number };
export type SeriesRow = Figures & { period: string; currency: string };
export type BreakdownRow = Figures & { currency: string; key: string };
export type Ledger = {
  since: string;
  until: string;
  by: 'day' | 'week' | 'month';
  series: SeriesRow[];
  breakdown: Record<'currency' | 'product' | 'plan' | 'pay_method', BreakdownRow[]>;
  coupons: { currency: string; payments: number; given_away: number }[];
};
export type Entry = {
  day: string;
  currency: string;
  product_code: string;
  plan: string;
  pay_method: string;
  kind: 'revenue' | 'refund';
  merchant_uid: string;
  at: string;
  amount: number;
  buyer_email: string | null;
};
export type PaymentDetail = {
  payment: Record<string, string | number | null>;
  events: { notification_id: number; topic: string; at: string; version: number }[];
};
export type Mismatch = {
  merchant_uid: string;
  kind: string;
  ours: string;
  gateway: string;
  resolution: { outcome: string; note: string; at: string; requestId: string | null } | null;
};
export type ReconciliationDay = {
  day: string;
  runs: { run: number; at: string; trigger: string; reason: string; compared: number; mismatches: Mismatch[] }[];
};
export type Job = {
  job_id: string;
  kind: string;
  state: 'running' | 'done' | 'failed' | 'stalled';
  done: number;
  total: number;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  files: string[];
  created_at: string;
  finished_at: string | null;
};
export type Integrity = {
  verifier_key: string;
  tree_size: number;
  checkpoints: { tree_size: number; root_hash: string; note: string; signed_at: string }[];
  verifications: Job[];
  alarm: Job | null;
};
export type StaffAction = {
  notification_id: number;
  topic: string;
  action: string;
  member_id: string;
  subject: string;
  reason: string;
  at: string;
};

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
