/**
 * A JSON value kept in session storage for the tab, such as the order in flight while the browser
 * visits the payment gateway and comes back. Storage may be unavailable (private mode): writes
 * are then dropped and reads find nothing, and the pages fall back to what they can show.
 */
export function writeSessionRecord(key: string, value: unknown, storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // nothing is kept
  }
}

/** The value kept under `key`, or undefined when there is none (or it is not JSON). */
export function readSessionRecord(key: string, storage: Storage | undefined = globalThis.sessionStorage): unknown {
  try {
    const raw = storage?.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export function removeSessionRecord(key: string, storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.removeItem(key);
  } catch {
    // nothing to do
  }
}
