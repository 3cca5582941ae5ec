/** The alert of spec section 8: a modal with the feature's title and the message, closed with OK. */
import { useEffect, useId, useRef } from 'react';
import { useShellT } from '../i18n/useT';
import { ModalFrame } from './ModalFrame';

export interface AlertContent {
  title: string;
  message: string;
  /** Runs after the alert is closed (going home after "not found"). */
  then?: (() => void) | undefined;
}

/** Shows `alert` until OK (or Escape); nothing when it is null. OK takes the focus. */
export function AlertDialog({ alert, onClose }: { alert: AlertContent | null; onClose: () => void }) {
  const t = useShellT();
  const titleId = useId();
  const messageId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (alert) okRef.current?.focus();
  }, [alert]);
  if (!alert) return null;
  return (
    <ModalFrame labelledBy={titleId} describedBy={messageId} onEscape={onClose}>
      <h2 id={titleId} className="dialog__title">
        {alert.title}
      </h2>
      <p id={messageId} className="dialog__message">
        {alert.message}
      </p>
      <div className="dialog__actions">
        <button ref={okRef} type="button" className="button button--primary" onClick={onClose}>
          {t.common.ok}
        </button>
      </div>
    </ModalFrame>
  );
}
