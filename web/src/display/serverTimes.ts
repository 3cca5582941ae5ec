/**
 * Times the server sends (licence periods, payments, subscriptions), read and shown as
 * yyyy-MM-dd HH:mm. Kept apart from dates.ts, which the home page loads, because only the account
 * and billing pages show them.
 */
import { formatDate, pad, parseServerDate } from './dates';

/**
 * A server time: epoch seconds or milliseconds (numbers), or a date text (zone-less texts are
 * taken as +09:00, as the server's dates are).
 */
export function readTime(value: string | number | null | undefined): Date | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return new Date(Math.abs(value) < 1e11 ? value * 1000 : value);
  }
  return parseServerDate(value);
}

/** yyyy-MM-dd HH:mm of an instant (the browser's zone unless `offsetMinutes` is given). */
export function formatDateTime(date: Date, offsetMinutes?: number): string {
  const shifted = offsetMinutes === undefined ? date : new Date(date.getTime() + offsetMinutes * 60_000);
  const hours = offsetMinutes === undefined ? shifted.getHours() : shifted.getUTCHours();
  const minutes = offsetMinutes === undefined ? shifted.getMinutes() : shifted.getUTCMinutes();
  return `${formatDate(date, offsetMinutes)} ${pad(hours)}:${pad(minutes)}`;
}

/** The date and time of a server time, or undefined when it has none. */
export function formatServerTime(value: string | number | null | undefined): string | undefined {
  const date = readTime(value);
  return date ? formatDateTime(date) : undefined;
}
