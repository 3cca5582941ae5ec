/**
 * Coupons as every paying page uses them (spec sections 4, 5 and 8): look up a code that came in the
 * URL, check a code a buyer typed against its constraint, and read a failure as the spec says — a
 * guest without an email and a constraint error on the email are -2; a check that got no answer is
 * -120122; otherwise the server's code.
 */
import { ApiError } from '../api/client';
import { apiGet, apiPost, type Schema } from '../api/typed';

export type CouponAnswer = Schema<'CouponOut'>;

/** The client's code for a constraint check that got no response. */
export const NO_RESPONSE = -120122;
export const INVALID_VALUE = -2;

/** A coupon the buyer applied: its code, whether it came from the URL, its name and its discount fraction. */
export interface AppliedCoupon {
  code: string;
  isQuery: boolean;
  name: string;
  factor: number;
}

export type CouponOutcome = { ok: true; coupon: AppliedCoupon } | { ok: false; code: number };

export interface CouponCheckRequest {
  code: string;
  /** True when a member is logged in (the server reads the member's email). */
  member: boolean;
  email?: string | null;
  purchaseType?: 'new' | 'upgrade';
  userLicenseId?: string | null;
  token?: string | null;
}

export interface CouponCalls {
  lookUp: (code: string, token: string | null) => Promise<CouponAnswer>;
  check: (request: CouponCheckRequest) => Promise<CouponAnswer>;
}

export const couponCalls: CouponCalls = {
  lookUp: (code, token) => apiGet('/payments/coupons', { query: { code }, token }),
  check: ({ code, email, purchaseType, userLicenseId, token }) =>
    apiPost('/payments/coupons/check', {
      body: { code, email: email || null, purchaseType: purchaseType ?? 'new', userLicenseId: userLicenseId || null },
      token: token ?? null,
    }),
};

function applied(answer: CouponAnswer, isQuery: boolean): AppliedCoupon {
  return { code: answer.code, isQuery, name: answer.couponGroup.name, factor: Number(answer.couponGroup.factor) };
}

function failureCode(error: unknown): number {
  if (!(error instanceof ApiError)) return NO_RESPONSE;
  if (error.reason !== 'response' || error.status === undefined) return NO_RESPONSE;
  const body = error.body as { path?: unknown } | null | undefined;
  if (body && typeof body === 'object' && body.path === 'email') return INVALID_VALUE;
  return error.code;
}

/** A code the buyer typed: -1 when empty, -2 for a guest without an email, else what the server says. */
export async function checkCoupon(request: CouponCheckRequest, calls: CouponCalls = couponCalls): Promise<CouponOutcome> {
  const code = request.code.trim();
  if (!code) return { ok: false, code: -1 };
  if (!request.member && !request.email?.trim()) return { ok: false, code: INVALID_VALUE };
  try {
    return { ok: true, coupon: applied(await calls.check({ ...request, code }), false) };
  } catch (error) {
    return { ok: false, code: failureCode(error) };
  }
}

/** A code that came in the URL (`?code=`), applied on arrival: looked up without asking for an email. */
export async function lookUpCoupon(
  code: string,
  token: string | null,
  calls: CouponCalls = couponCalls,
): Promise<CouponOutcome> {
  try {
    return { ok: true, coupon: applied(await calls.lookUp(code.trim(), token), true) };
  } catch (error) {
    return { ok: false, code: failureCode(error) };
  }
}
