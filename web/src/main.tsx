import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadIntegrations } from './config/integrations';
import { appStore } from './store';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The payment access settings (the visitor's country, currency and payment methods), fetched once at start.
void appStore.getState().loadPaymentSettings().catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Error reporting loads only when the server names a DSN, and after the app has started.
void loadIntegrations().then((settings) =>
  settings.sentryDsn ? import('./errors/reporting').then((reporting) => reporting.startErrorReporting(settings)) : false,
);
