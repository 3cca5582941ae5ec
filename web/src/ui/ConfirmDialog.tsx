/** A yes/no question in a modal; Cancel (or Escape) says no and takes the focus first. */
import { useEffect, useId, useRef } from 'react';
import { useShellT } from '../i18n/useT';
import { ModalFrame } from './ModalFrame';

/** Shows `message` with Cancel and `confirmLabel`; nothing when the message is null. */
export function ConfirmDialog({
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  message: string | null;
  confirmLabel: string;
  /** The "no" button's words when "Cancel" would be ambiguous (a dialog that cancels something). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useShellT();
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (message) cancelRef.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <ModalFrame describedBy={messageId} onEscape={onCancel}>
      <p id={messageId} className="dialog__message">
        {message}
      </p>
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
