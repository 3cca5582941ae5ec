/**
 * How long a licence runs, as the purchase page shows it (spec sections 4 and 9):
 * - 36500 days is lifetime: no range;
 * - 365 days or fewer: today to an end date, one year ahead for 365, 30 days ahead otherwise;
 * - more than 365 days (but not lifetime): today, without an end date.
 */
import { LIFETIME_DAYS, MONTH_DAYS, YEAR_DAYS } from '../api/rules';
import { formatDate } from './dates';

const DAY_MS = 86_400_000;

export type DurationDisplay =
  | { kind: 'lifetime' }
  | { kind: 'range'; start: string; end: string }
  | { kind: 'open'; start: string };

/** `offsetMinutes`: zone for the dates (the browser's when left out). */
export function durationDisplay(lifeDays: number, now: Date, offsetMinutes?: number): DurationDisplay {
  if (lifeDays === LIFETIME_DAYS) return { kind: 'lifetime' };
  const start = formatDate(now, offsetMinutes);
  if (lifeDays > YEAR_DAYS) return { kind: 'open', start };
  const length = (lifeDays === YEAR_DAYS ? YEAR_DAYS : MONTH_DAYS) * DAY_MS;
  return { kind: 'range', start, end: formatDate(new Date(now.getTime() + length), offsetMinutes) };
}

/** Text of a duration: the lifetime label, 'start ~ end', or 'start ~'. */
export function durationText(display: DurationDisplay, lifetimeLabel: string): string {
  switch (display.kind) {
    case 'lifetime':
      return lifetimeLabel;
    case 'range':
      return `${display.start} ~ ${display.end}`;
    case 'open':
      return `${display.start} ~`;
  }
}

/** How a period is named: a monthly or annual subscription, a lifetime licence, or a number of days. */
export type PeriodKind = 'monthly' | 'annual' | 'lifetime' | 'days';

/** The kind of a licence life (30, 365, 36500 days; anything else is named by its days). */
export function periodKind(life: number): PeriodKind {
  if (life === LIFETIME_DAYS) return 'lifetime';
  if (life === YEAR_DAYS) return 'annual';
  if (life === 30) return 'monthly';
  return 'days';
}
