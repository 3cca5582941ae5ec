import { describe, expect, it } from 'vitest';
import { LIFETIME_DAYS } from '../api/rules';
import { durationDisplay, durationText } from './duration';

const now = new Date('2026-11-22T03:00:00Z'); // 12:00 in Seoul

describe('durationDisplay (spec section 4, "Duration display")', () => {
  it('shows lifetime without a range for 36500 days', () => {
    expect(durationDisplay(LIFETIME_DAYS, now, 540)).toEqual({ kind: 'lifetime' });
  });

  it('shows today to one year ahead for 365 days', () => {
    expect(durationDisplay(365, now, 540)).toEqual({ kind: 'range', start: '2026-11-22', end: '2027-11-22' });
  });

  it('shows today to 30 days ahead for other lives up to 365', () => {
    expect(durationDisplay(30, now, 540)).toEqual({ kind: 'range', start: '2026-11-22', end: '2026-12-22' });
    expect(durationDisplay(90, now, 540)).toEqual({ kind: 'range', start: '2026-11-22', end: '2026-12-22' });
    expect(durationDisplay(364, now, 540)).toEqual({ kind: 'range', start: '2026-11-22', end: '2026-12-22' });
  });

  it('shows no end date above 365 days', () => {
    expect(durationDisplay(366, now, 540)).toEqual({ kind: 'open', start: '2026-11-22' });
    expect(durationDisplay(730, now, 540)).toEqual({ kind: 'open', start: '2026-11-22' });
  });

  it('counts one year as 365 days, also across a leap day', () => {
    expect(durationDisplay(365, new Date('2027-03-01T03:00:00Z'), 540)).toEqual({
      kind: 'range',
      start: '2027-03-01',
      end: '2028-02-29',
    });
  });

  it('formats the dates in the given zone', () => {
    const lateUtc = new Date('2026-11-22T20:00:00Z'); // already the 23rd in Seoul
    expect(durationDisplay(30, lateUtc, 540)).toMatchObject({ start: '2026-11-23' });
    expect(durationDisplay(30, lateUtc, 0)).toMatchObject({ start: '2026-11-22' });
  });
});

describe('durationText', () => {
  it('writes each kind', () => {
    expect(durationText({ kind: 'lifetime' }, 'Lifetime')).toBe('Lifetime');
    expect(durationText({ kind: 'range', start: '2026-11-22', end: '2027-11-22' }, 'Lifetime')).toBe('2026-11-22 ~ 2027-11-22');
    expect(durationText({ kind: 'open', start: '2026-11-22' }, 'Lifetime')).toBe('2026-11-22 ~');
  });
});
