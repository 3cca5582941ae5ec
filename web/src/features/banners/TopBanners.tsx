import { useEffect, useState } from 'react';
import { useShellT } from '../../i18n/useT';
import { useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { useAppStore } from '../../store';
import { fetchEventBanners, type EventBannersAnswer } from './api';
import { TopBanner } from './TopBanner';
import { dismissalCookie, shownBanners, type ShownBanner } from './visibility';

/** Country of the shell until the payment settings say the visitor's (spec section 2: the server forces KR). */
const SHELL_COUNTRY = 'KR';

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
