/**
 * The not-found page says so, for error reporting: its trace is renamed "404", a name that is never
 * sent (as on the server). Kept apart from the reporting code so that the page does not load the SDK.
 */
export const NOT_FOUND_EVENT = 'app:not-found';

let notFoundPath: string | null = null;

/** Called by the not-found page when it shows. */
export function announceNotFound(): void {
  notFoundPath = window.location.pathname;
  window.dispatchEvent(new Event(NOT_FOUND_EVENT));
}

/** Whether the page now shown is the not-found page (for reporting started after it showed). */
export function showingNotFound(): boolean {
  return notFoundPath !== null && notFoundPath === window.location.pathname;
}
