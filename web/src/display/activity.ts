/**
 * Activity windows (spec section 4, "Activity"): with a start date, active when now is between
 * start and end; otherwise active when the end is in the future. Notices stretch their window to
 * whole +09:00 days (00:00:00 of the start day to 23:59:59 of the end day).
 */
import { kstDayBounds, parseServerDate } from './dates';

export interface ActivityWindow {
  startAt?: string | number | null;
  endAt?: string | number | null;
}

/**
 * True when `now` falls in the window. With a start: start <= now <= end (no end means open-ended).
 * Without a start: end > now (no end either means not active).
 */
export function isWithinWindow({ startAt, endAt }: ActivityWindow, now: Date): boolean {
  const start = parseServerDate(startAt ?? undefined);
  const end = parseServerDate(endAt ?? undefined);
  const time = now.getTime();
  if (start) return time >= start.getTime() && (end === undefined || time <= end.getTime());
  return end !== undefined && end.getTime() > time;
}

/** The notice's window: from 00:00:00 of its start day to 23:59:59 of its end day, in +09:00. */
export function noticeWindow({ startAt, endAt }: ActivityWindow): { startAt?: number; endAt?: number } {
  const start = parseServerDate(startAt ?? undefined);
  const end = parseServerDate(endAt ?? undefined);
  return {
    startAt: start ? kstDayBounds(start).start.getTime() : undefined,
    endAt: end ? kstDayBounds(end).end.getTime() : undefined,
  };
}

export interface Schedulable extends ActivityWindow {
  active?: boolean | null;
  type?: string | null;
}

/**
 * Whether an event banner or notice is live at `now`: its `active` flag is on and now is in its
 * window (whole days for notices). Dismissal is checked separately.
 */
export function isLive(item: Schedulable, now: Date): boolean {
  if (item.active !== true) return false;
  const window = item.type === 'notice' ? noticeWindow(item) : item;
  return isWithinWindow(window, now);
}
