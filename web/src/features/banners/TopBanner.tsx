/**
 * One banner or notice above the header, as the store draws it: the storefront's TopBanners shows the live ones, and
 * the back office's preview (src/admin/marketing) draws a banner being edited with this same component.
 */
import type { CSSProperties, ReactNode } from 'react';
import { ExternalLink } from '../../ui/ExternalLink';
import type { BannerLocalization } from './api';
import type { ShownBanner } from './visibility';
import './TopBanners.css';

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function BannerLink({ url, className, children }: { url?: string | null; className: string; children: ReactNode }) {
  if (!url) return <div className={className}>{children}</div>;
  if (/^https?:\/\//i.test(url) && !url.startsWith(window.location.origin)) {
    return (
      <ExternalLink href={url} className={className}>
        {children}
      </ExternalLink>
    );
  }
  return (
    <a href={url} className={className}>
      {children}
    </a>
  );
}

function BannerText({ localization }: { localization: BannerLocalization }) {
  return (
    <>
      {localization.text && (
        <span className="top-banner__text" style={{ color: localization.textColor ?? undefined }}>
          {localization.text}
        </span>
      )}
      {localization.subText && (
        <span className="top-banner__subtext" style={{ color: localization.subTextColor ?? undefined }}>
          {localization.subText}
        </span>
      )}
    </>
  );
}

export interface BannerProps {
  shown: ShownBanner;
  label: string;
  closeLabel: string;
  onClose: () => void;
}

export function TopBanner({ shown, label, closeLabel, onClose }: BannerProps) {
  const { banner, localization } = shown;
  const kind = banner.type === 'notice' ? 'notice' : 'event';
  const style: CSSProperties = {
    backgroundColor: localization.backgroundColor ?? undefined,
    backgroundImage: localization.backgroundImageUrl ? `url("${localization.backgroundImageUrl}")` : undefined,
  };
  const image = localization.pcImageUrl || localization.mobileImageUrl;
  return (
    <section className={`top-banner top-banner--${kind}`} style={style} aria-label={label} data-banner-id={banner.id}>
      <BannerLink url={localization.url} className="top-banner__content">
        {image ? (
          <picture className="top-banner__picture">
            {localization.mobileImageUrl && (
              <source media="(max-width: 768px)" srcSet={localization.mobileImageUrl} />
            )}
            <img src={localization.pcImageUrl || localization.mobileImageUrl || ''} alt={localization.text ?? label} />
          </picture>
        ) : (
          <BannerText localization={localization} />
        )}
      </BannerLink>
      <button
        type="button"
        className="top-banner__close"
        aria-label={closeLabel}
        style={{ color: localization.closeButtonColor ?? undefined }}
        onClick={onClose}
      >
        <CloseIcon />
      </button>
    </section>
  );
}
