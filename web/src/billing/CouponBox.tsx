/**
 * The coupon box of the paying pages (purchase now, upgrade later): type a code and apply it, or
 * remove the applied one. What applying means (which check, which email) is the caller's
 * (`useCoupon`); the box shows the applied coupon or the failure's message (spec section 8).
 */
import { useState } from 'react';
import { discountPercent } from '../display/discount';
import { format, type Catalogue } from '../i18n/catalogues';
import { useT } from '../i18n/useT';
import { Button } from '../ui/Button';
import { TextField } from '../ui/TextField';
import type { AppliedCoupon } from './coupon';
import './CouponBox.css';

/** The message of a coupon failure: the coupon catalogue, then the payments catalogue, then the generic text. */
export function couponErrorMessage(t: Catalogue, code: number): string {
  const own: Record<string, string | undefined> = t.coupon.errorCodes;
  const payments: Record<string, string | undefined> = t.payments.errorCodes;
  return own[String(code)] ?? payments[String(code)] ?? t.errors.generic;
}

export interface CouponBoxProps {
  applied: AppliedCoupon | null;
  /** The code of the last failure, or null. */
  error: number | null;
  busy: boolean;
  /** False when the applied coupon does not discount the chosen plan. */
  appliesToPlan?: boolean;
  onApply: (code: string) => void;
  onCancel: () => void;
}

export function CouponBox({ applied, error, busy, appliesToPlan = true, onApply, onCancel }: CouponBoxProps) {
  const t = useT();
  const [typed, setTyped] = useState('');
  return (
    <fieldset className="coupon-box">
      <legend className="content-section__heading">{t.coupon.heading}</legend>
      {applied ? (
        <div className="coupon-box__applied">
          <p className="coupon-box__code" data-testid="applied-coupon">
            <strong>{applied.code}</strong>{' '}
            {format(t.coupon.applied, { name: applied.name, percent: discountPercent(applied.factor) })}
          </p>
          {!appliesToPlan && <p className="hint">{t.coupon.notForPlan}</p>}
          <Button variant="secondary" onClick={onCancel}>
            {t.coupon.cancel}
          </Button>
        </div>
      ) : (
        <div className="coupon-box__entry">
          <TextField
            id="coupon-code"
            label={t.coupon.label}
            error={error === null ? undefined : couponErrorMessage(t, error)}
            inputProps={{
              name: 'couponCode',
              value: typed,
              autoComplete: 'off',
              placeholder: t.coupon.placeholder,
              onChange: (event) => setTyped(event.target.value),
              onKeyDown: (event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  onApply(typed);
                }
              },
            }}
          />
          <Button variant="secondary" loading={busy} onClick={() => onApply(typed)}>
            {t.coupon.apply}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
