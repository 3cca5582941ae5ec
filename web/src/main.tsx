import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadIntegrations } from './config/integrations';
import { lazyPageAt, patternAt } from './app/routes';
import { preloadMyLicences } from './features/licences/preload';
import { loadShellCatalogue } from './i18n/catalogues';
import { routePatterns } from './routing/paths';
import { languageOfPath, readBrowserLanguageHints } from './routing/preferredLanguage';
import { checkSession } from './session/session';
import { appStore } from './store';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const root = createRoot(container);

/** The first render waits for the shell part of the page's catalogue (at once for Korean, part of this bundle). */
function render() {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The first page's code (and its catalogue's pages part) is fetched now, beside the session and the shell's
// catalogue, rather than once React has rendered the shell around it; so is the licence page's list.
void lazyPageAt(window.location.pathname)?.preload();
if (patternAt(window.location.pathname) === routePatterns.license) preloadMyLicences(appStore);
// The session is restored (a renewal when the logged_in cookie is there) while React renders the first page, not
// after it: pages behind login wait for it. SessionKeeper's own check at mount joins the renewal in flight.
void checkSession(appStore);
loadShellCatalogue(languageOfPath(window.location.pathname, readBrowserLanguageHints())).then(render, render);

// The payment access settings (the visitor's country, currency and payment methods), fetched once at start.
void appStore.getState().loadPaymentSettings().catch(() => undefined);

// Error reporting loads only when the server names a DSN, and after the app has started.
void loadIntegrations().then((settings) =>
  settings.sentryDsn ? import('./errors/reporting').then((reporting) => reporting.startErrorReporting(settings)) : false,
);
