/** The frame both dialogs share: a dimmed backdrop and a modal alertdialog that Escape closes. */
import type { ReactNode } from 'react';
import './kit.css';

export function ModalFrame({
  labelledBy,
  describedBy,
  onEscape,
  children,
}: {
  labelledBy?: string;
  describedBy: string;
  onEscape: () => void;
  children: ReactNode;
}) {
  return (
    <div className="dialog__backdrop">
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onEscape();
        }}
      >
        {children}
      </div>
    </div>
  );
}
