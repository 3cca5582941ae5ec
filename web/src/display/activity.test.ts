import { describe, expect, it } from 'vitest';
import { isLive, isWithinWindow, noticeWindow } from './activity';

const at = (iso: string) => new Date(iso);

describe('isWithinWindow (spec section 4, "Activity")', () => {
  const window = { startAt: '2026-11-20T10:00:00+09:00', endAt: '2026-11-25T18:00:00+09:00' };

  it('with a start date, is active between start and end', () => {
    expect(isWithinWindow(window, at('2026-11-22T00:00:00+09:00'))).toBe(true);
    expect(isWithinWindow(window, at('2026-11-20T10:00:00+09:00'))).toBe(true);
    expect(isWithinWindow(window, at('2026-11-25T18:00:00+09:00'))).toBe(true);
  });

  it('with a start date, is not active before the start or after the end', () => {
    expect(isWithinWindow(window, at('2026-11-20T09:59:59+09:00'))).toBe(false);
    expect(isWithinWindow(window, at('2026-11-25T18:00:01+09:00'))).toBe(false);
  });

  it('with a start and no end, is active from the start on', () => {
    expect(isWithinWindow({ startAt: '2026-11-20' }, at('2030-01-01T00:00:00Z'))).toBe(true);
    expect(isWithinWindow({ startAt: '2026-11-20' }, at('2026-11-19T00:00:00+09:00'))).toBe(false);
  });

  it('without a start date, is active while the end is in the future', () => {
    expect(isWithinWindow({ endAt: '2026-11-25T18:00:00+09:00' }, at('2020-01-01T00:00:00Z'))).toBe(true);
    expect(isWithinWindow({ startAt: null, endAt: '2026-11-25T18:00:00+09:00' }, at('2026-11-25T18:00:00+09:00'))).toBe(false);
  });

  it('without either date, is not active', () => {
    expect(isWithinWindow({}, at('2026-11-22T00:00:00Z'))).toBe(false);
  });

  it('reads dates without a zone as +09:00', () => {
    const window2 = { startAt: '2026-11-22 10:00:00', endAt: '2026-11-22 12:00:00' };
    expect(isWithinWindow(window2, at('2026-11-22T01:30:00Z'))).toBe(true);
    expect(isWithinWindow(window2, at('2026-11-22T10:30:00Z'))).toBe(false);
  });
});

describe('noticeWindow', () => {
  it('runs from 00:00:00 of the start day to 23:59:59 of the end day in +09:00', () => {
    const window = noticeWindow({ startAt: '2026-11-20T15:00:00+09:00', endAt: '2026-11-21T08:00:00+09:00' });
    expect(new Date(window.startAt!).toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(new Date(window.endAt!).toISOString()).toBe('2026-11-21T14:59:59.999Z');
  });
});

describe('isLive', () => {
  const event = { type: 'event', active: true, startAt: '2026-11-20T10:00:00+09:00', endAt: '2026-11-21T10:00:00+09:00' };

  it('needs the active flag', () => {
    expect(isLive(event, at('2026-11-20T12:00:00+09:00'))).toBe(true);
    expect(isLive({ ...event, active: false }, at('2026-11-20T12:00:00+09:00'))).toBe(false);
    expect(isLive({ ...event, active: null }, at('2026-11-20T12:00:00+09:00'))).toBe(false);
  });

  it('uses the exact window for an event banner', () => {
    expect(isLive(event, at('2026-11-20T09:00:00+09:00'))).toBe(false);
    expect(isLive(event, at('2026-11-21T11:00:00+09:00'))).toBe(false);
  });

  it('uses whole days for a notice', () => {
    const notice = { ...event, type: 'notice' };
    expect(isLive(notice, at('2026-11-20T00:00:00+09:00'))).toBe(true);
    expect(isLive(notice, at('2026-11-21T23:59:59+09:00'))).toBe(true);
    expect(isLive(notice, at('2026-11-19T23:59:59+09:00'))).toBe(false);
    expect(isLive(notice, at('2026-11-22T00:00:00+09:00'))).toBe(false);
  });
});
