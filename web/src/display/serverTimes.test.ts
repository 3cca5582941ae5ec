import { describe, expect, it } from 'vitest';
import { formatDateTime, formatServerTime, readTime } from './serverTimes';

describe('readTime', () => {
  it('reads epoch seconds, epoch milliseconds and date texts', () => {
    expect(readTime(1_795_000_000)?.getTime()).toBe(1_795_000_000_000);
    expect(readTime(1_795_000_000_000)?.getTime()).toBe(1_795_000_000_000);
    expect(readTime('2026-11-22T01:00:00Z')?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(readTime('2026-11-22 10:00:00')?.toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(readTime(null)).toBeUndefined();
    expect(readTime('soon')).toBeUndefined();
  });
});

describe('formatDateTime', () => {
  it('formats date and time in a zone', () => {
    expect(formatDateTime(new Date('2026-11-21T15:05:00Z'), 9 * 60)).toBe('2026-11-22 00:05');
  });
  it('formats a server time, or says there is none', () => {
    expect(formatServerTime(null)).toBeUndefined();
    expect(formatServerTime('2026-11-22T01:00:00Z')).toMatch(/^2026-11-22 \d{2}:00$/);
  });
});
