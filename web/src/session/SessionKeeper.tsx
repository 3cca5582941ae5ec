import { useEffect } from 'react';
import { appStore } from '../store';
import { checkSession } from './session';

/** How often the cookie and expiry rules are looked at while the page is open. */
export const SESSION_CHECK_INTERVAL_MS = 30_000;

/**
 * Keeps the session in step with spec section 4: restores it at start (renewal when the
 * `logged_in` cookie is there), renews before expiry, and logs out when `logged_in` changes.
 * Runs on start, every 30 s, and when the window regains focus.
 */
export function SessionKeeper() {
  useEffect(() => {
    const check = () => {
      void checkSession(appStore);
    };
    check();
    const timer = window.setInterval(check, SESSION_CHECK_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return null;
}
