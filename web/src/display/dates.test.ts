import { describe, expect, it } from 'vitest';
import { formatDate, kstDayBounds, parseServerDate } from './dates';

describe('formatDate', () => {
  it('writes yyyy-MM-dd in the given zone', () => {
    const instant = new Date('2026-11-21T16:30:00Z'); // 01:30 on the 22nd in Seoul
    expect(formatDate(instant, 540)).toBe('2026-11-22');
    expect(formatDate(instant, 0)).toBe('2026-11-21');
    expect(formatDate(new Date('2026-01-05T00:00:00Z'), 0)).toBe('2026-01-05');
  });

  it('uses the browser zone without an offset', () => {
    const local = new Date(2026, 2, 7, 12, 0, 0);
    expect(formatDate(local)).toBe('2026-03-07');
  });
});

describe('parseServerDate', () => {
  it('reads texts without a zone as +09:00', () => {
    expect(parseServerDate('2026-11-22')?.toISOString()).toBe('2026-11-21T15:00:00.000Z');
    expect(parseServerDate('2026-11-22 10:00:00')?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(parseServerDate('2026-11-22T10:00:00')?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
  });

  it('keeps an explicit zone', () => {
    expect(parseServerDate('2026-11-22T10:00:00Z')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(parseServerDate('2026-11-22T10:00:00+09:00')?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
  });

  it('accepts epoch milliseconds and refuses junk', () => {
    expect(parseServerDate(0)?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(parseServerDate('soon')).toBeUndefined();
    expect(parseServerDate('')).toBeUndefined();
    expect(parseServerDate(null)).toBeUndefined();
  });
});

describe('kstDayBounds', () => {
  it('gives 00:00:00 and 23:59:59.999 of the Seoul day', () => {
    const { start, end } = kstDayBounds(new Date('2026-11-21T16:30:00Z'));
    expect(start.toISOString()).toBe('2026-11-21T15:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-22T14:59:59.999Z');
  });
});
