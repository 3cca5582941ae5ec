import { Component, type ReactNode } from 'react';

interface QuietBoundaryProps {
  children: ReactNode;
  /** Shown instead of the children after they failed; nothing by default. */
  fallback?: ReactNode;
}

/**
 * Keeps a failure of an optional part (the lazily loaded footer whose chunk could not be fetched
 * after a new deployment, for one) from taking the whole page down.
 */
export class QuietBoundary extends Component<QuietBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? (this.props.fallback ?? null) : this.props.children;
  }
}
