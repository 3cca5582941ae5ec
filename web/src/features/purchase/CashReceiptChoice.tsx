/**
 * The cash receipt (현금영수증) of a bank transfer or virtual account: none, personal (a mobile number) or business
 * (a business registration number). It is issued once the money arrives (docs/papers.md).
 */
import type { FieldError as FormFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { FieldError, fieldErrorText } from '../../ui/FieldError';

const TYPES = ['none', 'personal', 'business'] as const;

export function CashReceiptChoice({
  type,
  number,
  chosen,
  error,
}: {
  type: UseFormRegisterReturn;
  number: UseFormRegisterReturn;
  chosen: string;
  error: FormFieldError | undefined;
}) {
  const t = useT();
  const c = t.purchase.cashReceipt;
  const errorText = fieldErrorText(error, t.purchase.validation);
  return (
    <fieldset className="content-section">
      <legend>{c.heading}</legend>
      {TYPES.map((value) => (
        <label key={value} className="check">
          <input type="radio" value={value} {...type} />
          {c.types[value]}
        </label>
      ))}
      {chosen !== 'none' && (
        <div className="field">
          <label htmlFor="cash-receipt-number" className="field__label">
            {chosen === 'business' ? c.businessNumber : c.phone}
          </label>
          <input
            id="cash-receipt-number"
            className="field__input"
            inputMode="numeric"
            autoComplete="off"
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? 'cash-receipt-number-error' : undefined}
            {...number}
          />
          <FieldError id="cash-receipt-number-error">{errorText}</FieldError>
        </div>
      )}
    </fieldset>
  );
}
