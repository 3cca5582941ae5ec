/** Leaving the app for another site (the support desk's sign-on): a full page load, kept apart so tests can watch it. */
export function leaveSite(url: string): void {
  window.location.assign(url);
}
