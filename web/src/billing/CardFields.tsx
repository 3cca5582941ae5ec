/**
 * Card entry for a billing-key subscription (spec section 5): number without dashes, validity
 * month and year, first 2 digits of the password, birth date or business number. The values live
 * in the page's card form and go only to the billing-key calls, never with an order.
 */
import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { FieldError, fieldErrorText } from '../ui/FieldError';
import { useT } from '../i18n/useT';
import { EXPIRY_MONTHS, type CardForm } from './cardSchema';

export function CardFields({ form, years }: { form: UseFormReturn<CardForm>; years: readonly string[] }) {
  const t = useT();
  const id = useId();
  const {
    register,
    formState: { errors },
  } = form;
  const text = (error: (typeof errors)[keyof CardForm]) => fieldErrorText(error, t.purchase.validation);
  const field = (name: keyof CardForm, describedBy: string = name) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${describedBy}-error` : undefined,
  });
  const expiryError = text(errors.expiryMonth ?? errors.expiryYear);

  return (
    <fieldset className="content-section card">
      <legend>{t.purchase.card.heading}</legend>
      <div className="fields">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-cardNumber`}>
            {t.purchase.card.number}
          </label>
          <input
            className="field__input"
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={23}
            {...field('cardNumber')}
            {...register('cardNumber')}
          />
          <p className="field__hint">{t.purchase.card.numberHint}</p>
          <FieldError id={`${id}-cardNumber-error`}>{text(errors.cardNumber)}</FieldError>
        </div>
        <div className="field">
          <span className="field__label">{t.purchase.card.expiry}</span>
          <div className="field__row">
            <select aria-label={t.purchase.card.month} {...field('expiryMonth', 'expiry')} {...register('expiryMonth')}>
              <option value="">{t.purchase.card.month}</option>
              {EXPIRY_MONTHS.map((month) => (
                <option key={month} value={month}>
                  {month}
                </option>
              ))}
            </select>
            <select aria-label={t.purchase.card.year} {...field('expiryYear', 'expiry')} {...register('expiryYear')}>
              <option value="">{t.purchase.card.year}</option>
              {years.map((year) => (
                <option key={year} value={year}>
                  {year}
                </option>
              ))}
            </select>
          </div>
          <FieldError id={`${id}-expiry-error`}>{expiryError}</FieldError>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-password`}>
            {t.purchase.card.password}
          </label>
          <input
            className="field__input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={2}
            {...field('password')}
            {...register('password')}
          />
          <FieldError id={`${id}-password-error`}>{text(errors.password)}</FieldError>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-birth`}>
            {t.purchase.card.birth}
          </label>
          <input
            className="field__input"
            inputMode="numeric"
            autoComplete="off"
            maxLength={12}
            {...field('birth')}
            {...register('birth')}
          />
          <FieldError id={`${id}-birth-error`}>{text(errors.birth)}</FieldError>
        </div>
      </div>
    </fieldset>
  );
}
