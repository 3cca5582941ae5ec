/** Small building blocks of the account pages: alert dialog, inline error text, message, buttons. */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import type { ValidationKey } from './schemas';
import './auth.css';

export interface AlertContent {
  title: string;
  message: string;
}

/** Modal alert (spec section 8 "alert"): a title per feature and the message, closed with OK. */
export function AlertDialog({ alert, onClose }: { alert: AlertContent | null; onClose: () => void }) {
  const t = useT();
  const titleId = useId();
  const messageId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (alert) okRef.current?.focus();
  }, [alert]);
  if (!alert) return null;
  return (
    <div className="auth-alert__backdrop">
      <div
        className="auth-alert"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <h2 id={titleId} className="auth-alert__title">
          {alert.title}
        </h2>
        <p id={messageId} className="auth-alert__message">
          {alert.message}
        </p>
        <button ref={okRef} type="button" className="button button--primary" onClick={onClose}>
          {t.auth.actions.confirm}
        </button>
      </div>
    </div>
  );
}

/** State for one page's alert. */
export function useAlert() {
  const [alert, setAlert] = useState<AlertContent | null>(null);
  const close = useCallback(() => setAlert(null), []);
  return { alert, show: setAlert, close };
}

/** Inline error text under a field (spec section 8 "text"). */
export function FieldMessage({ id, children }: { id: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <p id={id} className="auth-field__error" role="alert">
      {children}
    </p>
  );
}

/** Text of a validation error: its message is a key of `auth.validation`. */
export function useValidationText() {
  const t = useT();
  return (error: FieldError | undefined): string | undefined => {
    if (!error) return undefined;
    const key = error.message as ValidationKey | undefined;
    return (key && t.auth.validation[key]) || t.auth.validation.required;
  };
}

/** A message box (spec section 8 "message"), announced politely. */
export function StatusMessage({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'error' }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <p className={`auth-message auth-message--${tone}`} role="status">
      {children}
    </p>
  );
}

/** Button with the spec's states: normal, loading (indicator, text hidden), disabled. */
export function SubmitButton({
  loading,
  children,
  type = 'submit',
  onClick,
  variant = 'primary',
}: {
  loading?: boolean;
  children: ReactNode;
  type?: 'submit' | 'button';
  onClick?: () => void;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <button
      type={type}
      className={`button button--${variant} auth-button${loading ? ' auth-button--loading' : ''}`}
      aria-busy={loading || undefined}
      disabled={loading}
      onClick={onClick}
    >
      {loading && <span className="auth-button__spinner" aria-hidden="true" />}
      <span className={loading ? 'visually-hidden' : undefined}>{children}</span>
    </button>
  );
}

/** A labelled text input with its inline error. */
export function TextField({
  label,
  error,
  hint,
  inputProps,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { name: string; ref?: React.Ref<HTMLInputElement> };
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="auth-field">
      <label htmlFor={id} className="auth-field__label">
        {label}
      </label>
      <input
        id={id}
        className="auth-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {hint && (
        <p id={hintId} className="auth-field__hint">
          {hint}
        </p>
      )}
      <FieldMessage id={errorId}>{error}</FieldMessage>
    </div>
  );
}
