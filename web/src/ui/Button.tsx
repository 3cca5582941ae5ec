/** The site's button with the states of spec section 4: normal, loading and disabled. */
import type { ReactNode } from 'react';
import './kit.css';

export interface ButtonProps {
  children: ReactNode;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary';
  /** Shows the indicator, hides the text (still read by screen readers) and takes no clicks. */
  loading?: boolean;
  disabled?: boolean;
  onClick?: () => void;
  /**
   * Where a click on the disabled button goes (spec section 4). With it the button stays
   * focusable and is marked `aria-disabled`; without it a disabled button takes no clicks.
   */
  onDisabledClick?: () => void;
  className?: string;
}

/** A button: primary or secondary, normal, loading or disabled. */
export function Button({
  children,
  type = 'button',
  variant = 'primary',
  loading = false,
  disabled = false,
  onClick,
  onDisabledClick,
  className,
}: ButtonProps) {
  const routedDisabled = disabled && !loading && onDisabledClick !== undefined;
  const classes = ['button', `button--${variant}`, loading && 'button--loading', className].filter(Boolean).join(' ');
  return (
    <button
      type={routedDisabled ? 'button' : type}
      className={classes}
      aria-busy={loading || undefined}
      aria-disabled={routedDisabled || undefined}
      disabled={loading || (disabled && !routedDisabled)}
      onClick={routedDisabled ? onDisabledClick : onClick}
    >
      {loading && <span className="button__spinner" aria-hidden="true" />}
      <span className={loading ? 'visually-hidden' : undefined}>{children}</span>
    </button>
  );
}
