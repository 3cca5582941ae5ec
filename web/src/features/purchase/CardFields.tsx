/**
 * Card entry for a billing-key subscription (spec section 5): number without dashes, validity
 * month and year, first 2 digits of the password, birth date or business number. The values live
 * in the page's card form and go only to the billing-key call, never with an order.
 */
import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { FieldError } from '../payments/ui';
import { EXPIRY_MONTHS, type CardForm, type PurchaseValidationKey } from './schemas';

export function CardFields({ form, years }: { form: UseFormReturn<CardForm>; years: readonly string[] }) {
  const t = useT();
  const id = useId();
  const {
    register,
    formState: { errors },
  } = form;
  const text = (key: string | undefined) =>
    key ? (t.purchase.validation[key as PurchaseValidationKey] ?? t.purchase.validation.required) : undefined;
  const field = (name: keyof CardForm, describedBy: string = name) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${describedBy}-error` : undefined,
  });
  const expiryError = text(errors.expiryMonth?.message ?? errors.expiryYear?.message);

  return (
    <fieldset className="pay-section pay-card">
      <legend>{t.purchase.card.heading}</legend>
      <div className="pay-fields">
        <div className="pay-field">
          <label className="pay-field__label" htmlFor={`${id}-cardNumber`}>
            {t.purchase.card.number}
          </label>
          <input
            className="pay-field__input"
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={16}
            {...field('cardNumber')}
            {...register('cardNumber')}
          />
          <p className="pay-field__hint">{t.purchase.card.numberHint}</p>
          <FieldError id={`${id}-cardNumber-error`}>{text(errors.cardNumber?.message)}</FieldError>
        </div>
        <div className="pay-field">
          <span className="pay-field__label">{t.purchase.card.expiry}</span>
          <div className="pay-field__row">
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
        <div className="pay-field">
          <label className="pay-field__label" htmlFor={`${id}-password`}>
            {t.purchase.card.password}
          </label>
          <input
            className="pay-field__input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={2}
            {...field('password')}
            {...register('password')}
          />
          <FieldError id={`${id}-password-error`}>{text(errors.password?.message)}</FieldError>
        </div>
        <div className="pay-field">
          <label className="pay-field__label" htmlFor={`${id}-birth`}>
            {t.purchase.card.birth}
          </label>
          <input
            className="pay-field__input"
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            {...field('birth')}
            {...register('birth')}
          />
          <FieldError id={`${id}-birth-error`}>{text(errors.birth?.message)}</FieldError>
        </div>
      </div>
    </fieldset>
  );
}
