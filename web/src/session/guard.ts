/**
 * Which mounted page needs scope 1 or more: RequireScope registers itself here so that logout
 * knows whether to go to login or stay on the page.
 */
let guardedPages = 0;

export function enterGuardedPage(): () => void {
  guardedPages += 1;
  return () => {
    guardedPages -= 1;
  };
}

export function currentPageNeedsScope(): boolean {
  return guardedPages > 0;
}
