import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { checkCoupon, lookUpCoupon, NO_RESPONSE, type CouponAnswer, type CouponCalls } from './coupon';

const answer = {
  code: 'WELCOME',
  couponGroup: { name: 'welcome', factor: '0.3', constraintType: 'account' },
} as unknown as CouponAnswer;

function calls(check: CouponCalls['check'] = async () => answer): CouponCalls {
  return { lookUp: vi.fn(async () => answer), check: vi.fn(check) };
}

describe('checking a typed coupon code', () => {
  it('applies the code with its group name and discount fraction', async () => {
    const api = calls();
    const outcome = await checkCoupon({ code: ' welcome ', member: true }, api);
    expect(outcome).toEqual({ ok: true, coupon: { code: 'WELCOME', isQuery: false, name: 'welcome', factor: 0.3 } });
    expect(api.check).toHaveBeenCalledWith(expect.objectContaining({ code: 'welcome' }));
  });

  it('refuses a guest without an email with -2 before asking the server', async () => {
    const api = calls();
    expect(await checkCoupon({ code: 'WELCOME', member: false, email: ' ' }, api)).toEqual({ ok: false, code: -2 });
    expect(api.check).not.toHaveBeenCalled();
  });

  it('refuses an empty code with -1', async () => {
    expect(await checkCoupon({ code: '  ', member: true }, calls())).toEqual({ ok: false, code: -1 });
  });

  it("answers the server's code, -2 for a failure on the email, and -120122 when nothing answered", async () => {
    const refused = calls(async () => {
      throw new ApiError(-613, 409, { errorCode: -613 }, 'response');
    });
    expect(await checkCoupon({ code: 'ONCE', member: true }, refused)).toEqual({ ok: false, code: -613 });
    const badEmail = calls(async () => {
      throw new ApiError(-1, 400, { errorCode: -1, path: 'email' }, 'response');
    });
    expect(await checkCoupon({ code: 'ONCE', member: false, email: 'x@' }, badEmail)).toEqual({ ok: false, code: -2 });
    const silent = calls(async () => {
      throw new ApiError(-1002, undefined, undefined, 'timeout');
    });
    expect(await checkCoupon({ code: 'ONCE', member: true }, silent)).toEqual({ ok: false, code: NO_RESPONSE });
  });
});

describe('a code that came in the URL', () => {
  it('is looked up without an email and marked as from the query', async () => {
    const outcome = await lookUpCoupon('welcome', null, calls());
    expect(outcome).toEqual({ ok: true, coupon: { code: 'WELCOME', isQuery: true, name: 'welcome', factor: 0.3 } });
  });
});
