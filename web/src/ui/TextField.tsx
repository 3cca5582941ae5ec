/** A labelled text input with its hint and its inline error. */
import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { FieldError } from './FieldError';
import './kit.css';

export function TextField({
  label,
  error,
  hint,
  id: givenId,
  className,
  inputProps,
}: {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** The input's id, when something outside names it; a generated one otherwise. */
  id?: string;
  className?: string;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { name: string; ref?: Ref<HTMLInputElement> };
}) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
