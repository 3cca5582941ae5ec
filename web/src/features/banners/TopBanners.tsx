import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { useShellT } from '../../i18n/useT';
import { useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { useAppStore } from '../../store';
import { ExternalLink } from '../../ui/ExternalLink';
import { fetchEventBanners, type BannerLocalization, type EventBannersAnswer } from './api';
import { dismissalCookie, shownBanners, type ShownBanner } from './visibility';
import './TopBanners.css';

/** Country of the shell until the payment settings say the visitor's (spec section 2: the server forces KR). */
const SHELL_COUNTRY = 'KR';

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

interface BannerProps {
  shown: ShownBanner;
  label: string;
  closeLabel: string;
  onClose: () => void;
}

function TopBanner({ shown, label, closeLabel, onClose }: BannerProps) {
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

/**
 * The closable notice and the event banner above the header. Both come from GET /event-banners
 * for the URL's coupon code; they show when active, inside their window and not closed in the last
 * day. A failed call shows nothing.
 */
export function TopBanners() {
  const t = useShellT();
  const lang = useLang();
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code');
  const [answer, setAnswer] = useState<EventBannersAnswer | null>(null);
  const [, setClosedCount] = useState(0);
  // The visitor's country as the server decided it (fetched once at start); never the UI language.
  const country = useAppStore((s) => s.paymentSettings?.countryCode) ?? SHELL_COUNTRY;

  useEffect(() => {
    const controller = new AbortController();
    void fetchEventBanners({ code, countryCode: country, signal: controller.signal }).then((next) => {
      if (!controller.signal.aborted) setAnswer(next);
    });
    return () => controller.abort();
  }, [code, country]);

  if (!answer) return null;
  const now = new Date();
  const { notice, event } = shownBanners(answer, lang, now, document.cookie);
  if (!notice && !event) return null;

  const close = (shown: ShownBanner) => {
    document.cookie = dismissalCookie(shown.banner, new Date());
    setClosedCount((count) => count + 1);
  };

  return (
    <>
      {notice && (
        <TopBanner shown={notice} label={t.banners.noticeLabel} closeLabel={t.banners.closeNotice} onClose={() => close(notice)} />
      )}
      {event && (
        <TopBanner shown={event} label={t.banners.eventLabel} closeLabel={t.banners.closeEvent} onClose={() => close(event)} />
      )}
    </>
  );
}
