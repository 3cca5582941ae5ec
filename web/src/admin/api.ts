/**
 * The back office's calls: the staff session travels in its own cookie (sent by the browser), and every change
 * repeats the CSRF value in `X-Staff-CSRF`. Types come from the generated OpenAPI schema, like the store's client.
 */
import type { components } from '../api/schema';

export type Member = components['schemas']['MemberOut'];
export type SignedIn = components['schemas']['SignedIn'];
export type CustomerFound = components['schemas']['CustomerFound'];
export type CustomerPage = components['schemas']['CustomerPage'];
export type RefundOut = components['schemas']['RefundOut'];
export type RefundPreview = components['schemas']['RefundPreviewOut'];
export type GatewayRefund = components['schemas']['GatewayRefundOut'];
export type GrantOut = components['schemas']['GrantOut'];
export type RefundRequest = components['schemas']['RefundRequestOut'];
export type Ceremony = components['schemas']['Ceremony'];
export type Invited = components['schemas']['Invited'];

const BASE = '/web/unicornpro/v1/staff';

export class StaffApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

function csrf(): string {
  const found = document.cookie.split('; ').find((part) => part.startsWith('staff_csrf='));
  return found ? decodeURIComponent(found.slice('staff_csrf='.length)) : '';
}

export async function staffCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Staff-CSRF': csrf() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await fetch(`${BASE}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (answer.status === 204) return undefined as T;
  const data: unknown = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const envelope = data as { errorCode?: number; message?: string };
    throw new StaffApiError(answer.status, envelope.errorCode, envelope.message ?? answer.statusText);
  }
  return data as T;
}
