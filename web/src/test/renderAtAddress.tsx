import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AppLocation } from '../routing/location';

/**
 * Renders `ui` under the app's location at `url`, with `state` on the history entry. jsdom's address bar and
 * history stand in for the browser's, so the location code under test is the app's own. `location()` reads the
 * address (path and query) at any later point.
 */
export function renderAtAddress(ui: ReactNode, url: string, state: unknown = null) {
  window.history.replaceState(state, '', url);
  const rendered = render(<AppLocation>{ui}</AppLocation>);
  return { ...rendered, location: () => `${window.location.pathname}${window.location.search}` };
}
