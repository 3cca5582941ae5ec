/**
 * How an owned licence's period and devices read (spec sections 4 and 9): 36500 days is lifetime
 * (no range); 365 days or fewer runs from its start to its end date; longer ones show no end.
 */
import type { Device, UserLicence } from '../../api/models';
import { LIFETIME_DAYS, YEAR_DAYS } from '../../api/rules';
import { formatDate } from '../../display/dates';
import { readTime } from '../../display/serverTimes';

export type LicencePeriod =
  | { kind: 'lifetime' }
  | { kind: 'range'; start: string; end: string }
  | { kind: 'open'; start: string }
  | { kind: 'unknown' };

/** `offsetMinutes`: the zone of the dates (the browser's when left out). */
export function licencePeriod(
  licence: Pick<UserLicence, 'life' | 'startsAt' | 'expiresAt'>,
  offsetMinutes?: number,
): LicencePeriod {
  if (licence.life === LIFETIME_DAYS) return { kind: 'lifetime' };
  const start = readTime(licence.startsAt);
  if (!start) return { kind: 'unknown' };
  const startText = formatDate(start, offsetMinutes);
  if (licence.life > YEAR_DAYS) return { kind: 'open', start: startText };
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

/**
 * A device's name, or the fallback with its platform. The server types `registrationData` as a
 * map of texts, so the name is read as an optional entry of it.
 */
export function deviceName(device: Pick<Device, 'registrationData' | 'platform'>, fallback: string): string {
  const name = device.registrationData.deviceName?.trim();
  if (name) return name;
  return device.platform ? `${fallback} (${device.platform})` : fallback;
}

/** The catalogue's name of a licence state, or the state itself. */
export function stateLabel(states: Record<string, string>, state: string): string {
  return states[state] ?? state;
}
