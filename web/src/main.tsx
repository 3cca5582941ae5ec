import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadCatalogue } from './i18n/catalogues';
import { languageOfPath, readBrowserLanguageHints } from './routing/preferredLanguage';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const root = createRoot(container);

/** The first render waits for the page's catalogue (at once for Korean, which is part of this bundle). */
function render() {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

loadCatalogue(languageOfPath(window.location.pathname, readBrowserLanguageHints())).then(render, render);
