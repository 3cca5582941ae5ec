/** The licence list read as the app starts on the licence page, beside the page's own code. */
import type { UserLicence } from '../../api/models';
import { checkSession } from '../../session/session';
import type { AppStore } from '../../store';
import { getMyLicences } from './api';

/** A preloaded answer older than this is not used: the page reads afresh. */
export const PRELOAD_FRESH_MS = 10_000;

interface Preloaded {
  startedAt: number;
  answer: Promise<{ token: string; licences: Promise<UserLicence[]> } | null>;
}

let preloaded: Preloaded | null = null;

/**
 * Starts reading the member's licences as soon as the session gives an access token, rather than once the page's
 * code has loaded and rendered: the list is the page's largest paint. Nothing is read for a visitor without a
 * confirmed account (the page sends them elsewhere).
 */
export function preloadMyLicences(store: AppStore, now: () => number = Date.now): void {
  const answer = checkSession(store).then(
    (user) => {
      if (!user || user.scope < 1) return null;
      const licences = getMyLicences(user.accessToken);
      licences.catch(() => undefined); // a failure is the page's to show: it reads again
      return { token: user.accessToken, licences };
    },
    () => null,
  );
  preloaded = { startedAt: now(), answer };
}

/**
 * The member's licences: the preloaded answer the first time it is asked for with the token it was read with (and
 * while it is fresh), otherwise a read now. A preloaded answer is taken once, so a reload reads afresh.
 */
export async function myLicences(token: string | null, now: () => number = Date.now): Promise<UserLicence[]> {
  const taken = preloaded;
  preloaded = null;
  if (taken && token && now() - taken.startedAt < PRELOAD_FRESH_MS) {
    const answer = await taken.answer;
    if (answer && answer.token === token) {
      try {
        return await answer.licences;
      } catch {
        // read again below
      }
    }
  }
  return getMyLicences(token);
}
