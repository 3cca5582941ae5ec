import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { INTEGRATIONS_OFF, loadIntegrations } from '../config/integrations';
import { useShellT } from '../i18n/useT';
import { useCurrentLocation } from '../routing/location';
import { useAppStore } from '../store';
import { PageLoading } from '../ui/PageLoading';
import { QuietBoundary } from '../ui/QuietBoundary';
import { ChatWidget } from './ChatWidget';
import { Header } from './Header';
import './AppLayout.css';

// The footer's company block is the deployment's (GET /integrations/settings, read once at start): the footer shows
// once both its code and those settings are there, so it never shifts when they arrive.
const Footer = lazy(() =>
  Promise.all([import('./Footer'), loadIntegrations()]).then(([module, settings]) => ({
    default: () => <module.default company={settings.company ?? INTEGRATIONS_OFF.company} />,
  })),
);
// The banners wait for GET /event-banners anyway, so their code loads beside the page, not before it.
const TopBanners = lazy(() => import('../features/banners/TopBanners').then((module) => ({ default: module.TopBanners })));

/**
 * Notice and event banner, header, main area (the page, `children`) and footer around every page of a language;
 * banners and footer load lazily.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const t = useShellT();
  const { pathname } = useCurrentLocation();
  const dimmer = useAppStore((s) => s.dimmer);
  const closeMenus = useAppStore((s) => s.closeMenus);

  useEffect(() => {
    closeMenus();
  }, [pathname, closeMenus]);

  useEffect(() => {
    document.body.classList.toggle('modal-open', dimmer);
    if (!dimmer) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMenus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.body.classList.remove('modal-open');
    };
  }, [dimmer, closeMenus]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t.header.skipToContent}
      </a>
      <QuietBoundary>
        <Suspense fallback={null}>
          <TopBanners />
        </Suspense>
      </QuietBoundary>
      <Header />
      {dimmer && <div className="dimmer" aria-hidden="true" onClick={closeMenus} />}
      <main id="main" className="app-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          {children}
        </Suspense>
      </main>
      <QuietBoundary>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      </QuietBoundary>
      <ChatWidget />
    </div>
  );
}
