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
          if (event.key === 'Tab') keepFocusInside(event.currentTarget, event);
        }}
      >
        {children}
      </div>
    </div>
  );
}

/** Tab and Shift+Tab go round the dialog's own controls: the page behind a modal is not reachable. */
function keepFocusInside(dialog: HTMLElement, event: { shiftKey: boolean; preventDefault: () => void }) {
  const focusable = Array.from(
    dialog.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])'),
  ).filter((element) => !element.hasAttribute('disabled'));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
