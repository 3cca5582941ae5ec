/**
 * Dates of the storefront. Coupon and banner dates are in +09:00 (spec section 9); the display
 * format is yyyy-MM-dd.
 */

/** +09:00, in minutes east of UTC. */
export const KST_OFFSET_MINUTES = 9 * 60;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A number written with leading zeros. */
export const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * yyyy-MM-dd of an instant, in the zone `offsetMinutes` east of UTC, or in the browser's own zone
 * when no offset is given.
 */
export function formatDate(date: Date, offsetMinutes?: number): string {
  if (offsetMinutes === undefined) {
    return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  return `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/**
 * Reads a server date. A text without a zone is taken as +09:00: '2026-11-22' is midnight in
 * Seoul, '2026-11-22 10:00:00' and '2026-11-22T10:00:00' are 10:00 in Seoul. Numbers are epoch
 * milliseconds. Undefined for anything unreadable.
 */
export function parseServerDate(value: string | number | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
  let text = value.trim();
  if (text === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text = `${text}T00:00:00`;
  text = text.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T');
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text = `${text}+09:00`;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** Start (00:00:00.000) and end (23:59:59.999) of the +09:00 day that holds `date`. */
export function kstDayBounds(date: Date): { start: Date; end: Date } {
  const offset = KST_OFFSET_MINUTES * 60_000;
  const dayStart = Math.floor((date.getTime() + offset) / DAY_MS) * DAY_MS - offset;
  return { start: new Date(dayStart), end: new Date(dayStart + DAY_MS - 1) };
}
