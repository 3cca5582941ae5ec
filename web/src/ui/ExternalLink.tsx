import type { ReactNode } from 'react';
import { useShellT } from '../i18n/useT';

interface ExternalLinkProps {
  href: string;
  children: ReactNode;
  className?: string;
}

/** A link to another site: opens in a new window, without giving it access to this one. */
export function ExternalLink({ href, children, className }: ExternalLinkProps) {
  const t = useShellT();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="visually-hidden"> {t.common.opensInNewWindow}</span>
    </a>
  );
}
