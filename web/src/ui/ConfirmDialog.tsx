/** A yes/no question in a modal; Cancel (or Escape) says no and takes the focus first. */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useShellT } from '../i18n/useT';
import { ModalFrame } from './ModalFrame';

/** Shows `message` with Cancel and `confirmLabel`; nothing when the message is null. */
export function ConfirmDialog({
  message,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  message: string | null;
  /** A heading that names the dialog, when the question needs one. */
  title?: string;
  /** What the question is about, shown under the message (a summary of what happens on yes). */
  children?: ReactNode;
  confirmLabel: string;
  /** The "no" button's words when "Cancel" would be ambiguous (a dialog that cancels something). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useShellT();
  const messageId = useId();
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (message) cancelRef.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <ModalFrame describedBy={messageId} labelledBy={title ? titleId : undefined} onEscape={onCancel}>
      {title && (
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
      )}
      <p id={messageId} className="dialog__message">
        {message}
      </p>
      {children}
      <div className="dialog__actions">
        <button ref={cancelRef} type="button" className="button button--secondary" onClick={onCancel}>
          {cancelLabel ?? t.common.cancel}
        </button>
        <button type="button" className="button button--primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </ModalFrame>
  );
}
