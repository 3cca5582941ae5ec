/**
 * A live preview of a banner or notice being edited, drawn by the storefront's own component (TopBanner) with the
 * storefront's own styles, in each language, at desktop and phone width. Each preview is an iframe of that width, so
 * the store's media queries (768px) and the `<picture>` sources choose as they will on a visitor's screen; the
 * component is rendered into it through a portal. Labels come from the store's catalogue of that language.
 */
import { type ReactNode, Suspense, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { TopBanner } from '../../features/banners/TopBanner';
import type { Banner as StoreBanner, BannerLocalization as StoreLocalization } from '../../features/banners/api';
import { useShellT } from '../../i18n/useT';
import storeCss from '../../styles/global.css?inline';
import bannerCss from '../../features/banners/TopBanners.css?inline';
import { useMarketingT } from './i18n';

export const PREVIEW_LANGUAGES = ['ko', 'en', 'ja'] as const;
export type PreviewLanguage = (typeof PREVIEW_LANGUAGES)[number];

const WIDTHS = { desktop: 1280, phone: 375 } as const;
const SCALE = { desktop: 0.5, phone: 1 } as const;

export interface PreviewBanner {
  id: number;
  type: 'event' | 'notice';
  localizations: StoreLocalization[];
}

function Frame({ width, scale, title, children }: { width: number; scale: number; title: string; children: ReactNode }) {
  const [body, setBody] = useState<HTMLElement | null>(null);
  return (
    <div style={{ width: width * scale, height: 110 * scale, overflow: 'hidden', border: '1px solid #ccc' }}>
      <iframe
        title={title}
        srcDoc="<!doctype html><html><head></head><body></body></html>"
        onLoad={(event) => {
          const doc = event.currentTarget.contentDocument;
          if (doc && !doc.head.querySelector('style')) {
            const style = doc.createElement('style');
            style.textContent = `${storeCss}\n${bannerCss}`;
            doc.head.appendChild(style);
          }
          setBody(doc?.body ?? null);
        }}
        style={{ width, height: 110, border: 0, transform: `scale(${scale})`, transformOrigin: '0 0' }}
      />
      {body ? createPortal(children, body) : null}
    </div>
  );
}

/** A language route of the store, so the store's components read `lang` as they do under `/{lang}/...`. */
function InLanguage({ lang, children }: { lang: PreviewLanguage; children: ReactNode }) {
  const location = useMemo(() => memoryLocation({ path: `/${lang}`, static: true }), [lang]);
  return (
    <Router hook={location.hook}>
      <Route path="/:lang">
        <Suspense fallback={null}>{children}</Suspense>
      </Route>
    </Router>
  );
}

/** The banner in one language, as TopBanners draws it (the store's labels of that language). */
function StoreBannerIn({ banner, localization }: { banner: PreviewBanner; localization: StoreLocalization }) {
  const t = useShellT();
  const shown = { banner: { ...banner, active: true } as StoreBanner, localization };
  const notice = banner.type === 'notice';
  return (
    <TopBanner
      shown={shown}
      label={notice ? t.banners.noticeLabel : t.banners.eventLabel}
      closeLabel={notice ? t.banners.closeNotice : t.banners.closeEvent}
      onClose={() => undefined}
    />
  );
}

export function BannerPreview({ banner }: { banner: PreviewBanner }) {
  const t = useMarketingT();
  return (
    <section aria-label={t('preview')}>
      <h3>{t('preview')}</h3>
      {PREVIEW_LANGUAGES.map((lang) => {
        const localization = banner.localizations.find((item) => item.langCode === lang);
        if (!localization || !(localization.text || localization.pcImageUrl || localization.mobileImageUrl)) return null;
        return (
          <div key={lang}>
            <h4>{lang}</h4>
            {(['desktop', 'phone'] as const).map((kind) => (
              <figure key={kind} style={{ margin: '0.25rem 0' }}>
                <figcaption>{`${t(kind)} (${WIDTHS[kind]}px)`}</figcaption>
                <Frame width={WIDTHS[kind]} scale={SCALE[kind]} title={`${t('previewOf')} ${lang} ${t(kind)}`}>
                  <InLanguage lang={lang}>
                    <StoreBannerIn banner={banner} localization={localization} />
                  </InLanguage>
                </Frame>
              </figure>
            ))}
          </div>
        );
      })}
    </section>
  );
}
