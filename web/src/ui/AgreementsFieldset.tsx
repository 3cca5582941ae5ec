/**
 * The required agreements of spec section 5 with "agree to all": one checkbox per agreement, each
 * with a link to read it in a new window, and the inline error when one is missing.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useT } from '../i18n/useT';
import { FieldError } from './FieldError';
import './kit.css';

export interface AgreementRow {
  label: string;
  /** Where the agreement's text is. */
  href: string;
  /** The checkbox, as react-hook-form's `register` gives it. */
  input: UseFormRegisterReturn;
}

export function AgreementsFieldset({
  legend,
  agreeAllLabel,
  allChecked,
  onAllChange,
  rows,
  viewLabel,
  error,
  errorId,
  className,
}: {
  legend: string;
  agreeAllLabel: string;
  allChecked: boolean;
  onAllChange: (checked: boolean) => void;
  rows: readonly AgreementRow[];
  /** The links' text ("View"). */
  viewLabel: string;
  error: string | undefined;
  errorId: string;
  className?: string;
}) {
  const t = useT();
  return (
    <fieldset
      className={className ? `agreements ${className}` : 'agreements'}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>{legend}</legend>
      <label className="check agreements__all">
        <input type="checkbox" checked={allChecked} onChange={(event) => onAllChange(event.target.checked)} />
        {agreeAllLabel}
      </label>
      {rows.map((row) => (
        <div key={row.input.name} className="agreements__row">
          <label className="check">
            <input type="checkbox" {...row.input} />
            {row.label}
          </label>
          <a href={row.href} target="_blank" rel="noopener noreferrer">
            {viewLabel}
            <span className="visually-hidden"> {t.common.opensInNewWindow}</span>
          </a>
        </div>
      ))}
      <FieldError id={errorId}>{error}</FieldError>
    </fieldset>
  );
}
