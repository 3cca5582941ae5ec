/**
 * How the order is paid: the auto-renewal switch (monthly and annual periods) and the payment
 * methods, which are the billing-key windows while auto-renewal is on.
 */
import type { FieldError as FormFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FieldError, fieldErrorText } from '../../ui/FieldError';
import { useT } from '../../i18n/useT';
import { methodChoices, type OfferedMethods } from './checkout';

export function PaymentMethodChoice({
  canSubscribe,
  autoRenew,
  onAutoRenew,
  method,
  error,
  hint,
  offered,
}: {
  /** Whether the chosen period can renew automatically. */
  canSubscribe: boolean;
  autoRenew: boolean;
  onAutoRenew: (on: boolean) => void;
  /** The method radios, as react-hook-form's `register('paymentMethod')` gives them. */
  method: UseFormRegisterReturn;
  error: FormFieldError | undefined;
  /** What the chosen flow says under the methods. */
  hint: string | undefined;
  /** The methods the server offers this visitor. */
  offered: OfferedMethods;
}) {
  const t = useT();
  const subscribing = canSubscribe && autoRenew;
  return (
    <>
      {canSubscribe && (
        <div className="content-section">
          <label className="check purchase__auto-renew">
            <input type="checkbox" checked={autoRenew} onChange={(event) => onAutoRenew(event.target.checked)} />
            {t.purchase.autoRenew}
          </label>
          <p className="hint">{t.purchase.autoRenewHint}</p>
        </div>
      )}
      <fieldset className="content-section">
        <legend>{t.purchase.methodHeading}</legend>
        <div className="purchase__options purchase__options--methods">
          {methodChoices(subscribing, offered).map((choice) => (
            <label key={choice} className="purchase-option">
              <input type="radio" value={choice} {...method} />
              <span className="purchase-option__name">{t.purchase.methods[choice]}</span>
            </label>
          ))}
        </div>
        <FieldError id="purchase-method-error">{fieldErrorText(error, t.purchase.validation)}</FieldError>
        {hint && <p className="hint">{hint}</p>}
      </fieldset>
    </>
  );
}
