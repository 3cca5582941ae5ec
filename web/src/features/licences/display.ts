/**
 * How an owned licence's period and devices read (spec sections 4 and 9): 36500 days is lifetime
 * (no range); 365 days or fewer runs from its start to its end date; longer ones show no end.
 */
import { formatDate, parseServerDate } from '../../display/dates';
import type { Device, UserLicence } from '../payments/types';

export const LIFETIME_DAYS = 36500;

export type LicencePeriod =
  | { kind: 'lifetime' }
  | { kind: 'range'; start: string; end: string }
  | { kind: 'open'; start: string }
  | { kind: 'unknown' };

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

/** `offsetMinutes`: the zone of the dates (the browser's when left out). */
export function licencePeriod(
  licence: Pick<UserLicence, 'life' | 'startsAt' | 'expiresAt'>,
  offsetMinutes?: number,
): LicencePeriod {
  if (licence.life === LIFETIME_DAYS) return { kind: 'lifetime' };
  const start = readTime(licence.startsAt);
  if (!start) return { kind: 'unknown' };
  const startText = formatDate(start, offsetMinutes);
  if (licence.life > 365) return { kind: 'open', start: startText };
  const end = readTime(licence.expiresAt);
  if (!end) return { kind: 'open', start: startText };
  return { kind: 'range', start: startText, end: formatDate(end, offsetMinutes) };
}

export function licencePeriodText(period: LicencePeriod, labels: { lifetime: string; unknown: string }): string {
  switch (period.kind) {
    case 'lifetime':
      return labels.lifetime;
    case 'range':
      return `${period.start} ~ ${period.end}`;
    case 'open':
      return `${period.start} ~`;
    case 'unknown':
      return labels.unknown;
  }
}

/** A device's name, or a fallback made of its platform and id. */
export function deviceName(device: Device, fallback: string): string {
  const name = device.registrationData?.deviceName?.trim();
  if (name) return name;
  return device.platform ? `${fallback} (${device.platform})` : fallback;
}

/** yyyy-MM-dd HH:mm of an instant (the browser's zone unless `offsetMinutes` is given). */
export function formatDateTime(date: Date, offsetMinutes?: number): string {
  const shifted = offsetMinutes === undefined ? date : new Date(date.getTime() + offsetMinutes * 60_000);
  const hours = offsetMinutes === undefined ? shifted.getHours() : shifted.getUTCHours();
  const minutes = offsetMinutes === undefined ? shifted.getMinutes() : shifted.getUTCMinutes();
  return `${formatDate(date, offsetMinutes)} ${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The catalogue's name of a licence state, or the state itself. */
export function stateLabel(states: Record<string, string>, state: string): string {
  return states[state] ?? state;
}
