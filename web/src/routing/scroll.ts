/**
 * Where the window is scrolled after an in-app navigation: a new page starts at its top (or at its `#hash`), and
 * going back or forward returns to where the customer was on that entry. The browser's own restoration cannot do
 * this here: pages render one transition behind the address and load their data afterwards, so at `popstate` the
 * page is not there yet. History entries are told apart by the Navigation API's entry key (Chromium, Safari 26,
 * Firefox 147), else by their address.
 */
import { useLayoutEffect } from 'react';

type Kind = 'push' | 'pop';

const positions = new Map<string, number>();
let pendingKind: Kind = 'push';
let installed = false;

interface NavigationEntryLike {
  key?: string;
}
interface NavigationLike {
  currentEntry?: NavigationEntryLike | null;
}

function entryKey(): string {
  const navigation = (window as unknown as { navigation?: NavigationLike }).navigation;
  return navigation?.currentEntry?.key ?? `${window.location.pathname}${window.location.search}`;
}

function install(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  let saving = 0;
  window.addEventListener(
    'scroll',
    () => {
      if (saving) return;
      saving = window.requestAnimationFrame(() => {
        saving = 0;
        positions.set(entryKey(), window.scrollY);
      });
    },
    { passive: true },
  );
  // The last history change before the page renders decides: wouter announces its pushState and replaceState.
  window.addEventListener('popstate', () => {
    pendingKind = 'pop';
  });
  for (const type of ['pushState', 'replaceState']) {
    window.addEventListener(type, () => {
      pendingKind = 'push';
    });
  }
}

/** Scrolls to `top` once the page is tall enough for it, giving up after a while or when the customer scrolls. */
function restore(top: number): () => void {
  let frame = 0;
  let stopped = false;
  const deadline = performance.now() + 3000;
  const stop = () => {
    stopped = true;
    window.cancelAnimationFrame(frame);
    window.removeEventListener('wheel', stop);
    window.removeEventListener('touchstart', stop);
    window.removeEventListener('keydown', stop);
  };
  window.addEventListener('wheel', stop, { passive: true });
  window.addEventListener('touchstart', stop, { passive: true });
  window.addEventListener('keydown', stop);
  const attempt = () => {
    if (stopped) return;
    const reachable = document.documentElement.scrollHeight - window.innerHeight;
    window.scrollTo(0, Math.min(top, Math.max(reachable, 0)));
    if (reachable >= top || performance.now() > deadline) {
      stop();
      return;
    }
    frame = window.requestAnimationFrame(attempt);
  };
  attempt();
  return stop;
}

function scrollToHash(hash: string): boolean {
  if (!hash || hash === '#') return false;
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (!target) return false;
  target.scrollIntoView();
  return true;
}

/**
 * Call with the shown location (the one the page on screen renders): when its path changes, a pushed or replaced
 * entry starts at the top and a history move returns to the position kept for it. Changes of the query or the
 * state alone (a filter, a tab) leave the scroll where it is.
 */
export function useScrollRestoration(pathname: string, hash: string): void {
  install();
  // A new #hash on the same page (a menu's link to a section of the page shown) scrolls to it.
  useLayoutEffect(() => {
    scrollToHash(hash);
  }, [hash]);
  useLayoutEffect(() => {
    const kind = pendingKind;
    pendingKind = 'push';
    if (kind === 'pop') {
      const kept = positions.get(entryKey());
      if (kept !== undefined) return restore(kept);
    }
    if (!scrollToHash(hash)) window.scrollTo(0, 0);
    return undefined;
    // Only a new path counts as a new page; the hash is read when the path changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
}
