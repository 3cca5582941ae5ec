/** The message of spec section 8: a line announced politely, plain or as an error. */
import type { ReactNode } from 'react';
import './kit.css';

/** Nothing when there is nothing to say. */
export function StatusLine({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'error' }) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return (
    <p className={`status-line status-line--${tone}`} role="status">
      {children}
    </p>
  );
}
