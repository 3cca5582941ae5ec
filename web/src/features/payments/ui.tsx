/** Small building blocks of the purchase, licence and payment pages: alert, confirm, button, field error. */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../i18n/useT';
import './payments.css';

export interface AlertContent {
  title: string;
  message: string;
  /** Runs after the alert is closed (going home after "not found"). */
  then?: () => void;
}

/** Modal alert (spec section 8 "alert"): the feature's title and the message, closed with OK. */
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
    <div className="pay-dialog__backdrop">
      <div
        className="pay-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <h2 id={titleId} className="pay-dialog__title">
          {alert.title}
        </h2>
        <p id={messageId} className="pay-dialog__message">
          {alert.message}
        </p>
        <div className="pay-dialog__actions">
          <button ref={okRef} type="button" className="button button--primary" onClick={onClose}>
            {t.payments.confirmOk}
          </button>
        </div>
      </div>
    </div>
  );
}

/** State of one page's alert; closing runs the alert's `then`. */
export function useAlert() {
  const [alert, setAlert] = useState<AlertContent | null>(null);
  const close = useCallback(() => {
    setAlert((current) => {
      if (current?.then) queueMicrotask(current.then);
      return null;
    });
  }, []);
  return { alert, show: setAlert, close };
}

/** A yes/no question in a modal dialog. */
export function ConfirmDialog({
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  message: string | null;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (message) cancelRef.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div className="pay-dialog__backdrop">
      <div
        className="pay-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-describedby={messageId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      >
        <p id={messageId} className="pay-dialog__message">
          {message}
        </p>
        <div className="pay-dialog__actions">
          <button ref={cancelRef} type="button" className="button button--secondary" onClick={onCancel}>
            {t.payments.cancel}
          </button>
          <button type="button" className="button button--primary" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Inline error text (spec section 8 "text"). */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return (
    <p id={id} className="pay-field__error" role="alert">
      {children}
    </p>
  );
}

/** A polite status line (spec section 8 "message"). */
export function StatusLine({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'error' }) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return (
    <p className={`pay-status pay-status--${tone}`} role="status">
      {children}
    </p>
  );
}

/** Button with the spec's states: normal, loading (indicator, text hidden), disabled. */
export function ActionButton({
  loading = false,
  disabled = false,
  children,
  type = 'button',
  variant = 'primary',
  onClick,
  className,
}: {
  loading?: boolean;
  disabled?: boolean;
  children: ReactNode;
  type?: 'submit' | 'button';
  variant?: 'primary' | 'secondary';
  onClick?: () => void;
  className?: string;
}) {
  return (
    <button
      type={type}
      className={`button button--${variant} pay-button${loading ? ' pay-button--loading' : ''}${className ? ` ${className}` : ''}`}
      aria-busy={loading || undefined}
      disabled={loading || disabled}
      onClick={onClick}
    >
      {loading && <span className="pay-button__spinner" aria-hidden="true" />}
      <span className={loading ? 'visually-hidden' : undefined}>{children}</span>
    </button>
  );
}
