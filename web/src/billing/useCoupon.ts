/**
 * The coupon of a paying page: the code of the URL is applied on arrival (looked up, no email asked);
 * a typed code is checked against its constraint with the member's account or the guest's email, and
 * becomes the URL's `code` so that it is carried across navigation. Removing it drops it from the URL.
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from '../routing/location';
import { getAccessToken } from '../session/session';
import { appStore } from '../store';
import { checkCoupon, lookUpCoupon, type AppliedCoupon, type CouponCalls, couponCalls } from './coupon';

export interface CouponState {
  applied: AppliedCoupon | null;
  error: number | null;
  busy: boolean;
  apply: (code: string) => void;
  cancel: () => void;
}

export function useCoupon(
  { member, email, purchaseType = 'new', userLicenseId = null }: {
    member: boolean;
    email: () => string;
    purchaseType?: 'new' | 'upgrade';
    userLicenseId?: string | null;
  },
  calls: CouponCalls = couponCalls,
): CouponState {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlCode = searchParams.get('code')?.trim() ?? '';
  const [applied, setApplied] = useState<AppliedCoupon | null>(null);
  const [error, setError] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!urlCode || applied?.code.toUpperCase() === urlCode.toUpperCase()) return undefined;
    let live = true;
    void getAccessToken(appStore)
      .catch(() => null)
      .then((token) => lookUpCoupon(urlCode, token, calls))
      .then((outcome) => {
        if (!live) return;
        if (outcome.ok) {
          setApplied(outcome.coupon);
          setError(null);
        } else {
          setError(outcome.code);
        }
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Only a new URL code is looked up.
  }, [urlCode]);

  const withCode = (code: string | null) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (code) next.set('code', code);
        else next.delete('code');
        return next;
      },
      { replace: true },
    );
  };

  const apply = (code: string) => {
    if (busy) return;
    setBusy(true);
    void getAccessToken(appStore)
      .catch(() => null)
      .then((token) =>
        checkCoupon({ code, member, email: email(), purchaseType, userLicenseId, token }, calls),
      )
      .then((outcome) => {
        setBusy(false);
        if (outcome.ok) {
          setApplied(outcome.coupon);
          setError(null);
          withCode(outcome.coupon.code);
        } else {
          setError(outcome.code);
        }
      });
  };

  const cancel = () => {
    setApplied(null);
    setError(null);
    withCode(null);
  };

  return { applied, error, busy, apply, cancel };
}
