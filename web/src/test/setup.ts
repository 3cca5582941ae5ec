import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadCatalogue } from '../i18n/catalogues';
import { LANGUAGES } from '../i18n/languages';

// Pages are lazily loaded; on a busy machine their first import can take more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// The app loads a language's catalogue when first shown (useT suspends until then); page tests render any
// language at once, so every catalogue is loaded before they start.
await Promise.all(LANGUAGES.map(loadCatalogue));

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((part) => {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
