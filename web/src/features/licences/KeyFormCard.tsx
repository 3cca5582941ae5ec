import type { FormEventHandler, InputHTMLAttributes } from 'react';
import { useT } from '../../i18n/useT';
import { Button } from '../../ui/Button';
import { FieldError } from '../../ui/FieldError';

/**
 * The card of the licence-key form, as it looks: `LicenceKeyForm` fills it with the working form, and the licence
 * page shows it idle while that form's code (react-hook-form, zod) is still on its way, in the same place and size.
 */
export function KeyFormCard({
  inputProps,
  error,
  submitting = false,
  onSubmit,
}: {
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  error?: string;
  submitting?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
}) {
  const t = useT();
  return (
    <form className="card" noValidate onSubmit={onSubmit ?? ((event) => event.preventDefault())}>
      <h2 className="content-section__heading">{t.licences.register.heading}</h2>
      <div className="field">
        <label className="field__label" htmlFor="licence-key">
          {t.licences.register.label}
        </label>
        <div className="button-row">
          <input
            id="licence-key"
            className="field__input licences__key-input"
            autoComplete="off"
            placeholder={t.licences.register.placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'licence-key-error' : undefined}
            {...inputProps}
          />
          <Button type="submit" loading={submitting}>
            {t.licences.register.submit}
          </Button>
        </div>
        <FieldError id="licence-key-error">{error}</FieldError>
      </div>
    </form>
  );
}
