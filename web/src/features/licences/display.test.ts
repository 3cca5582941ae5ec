import { describe, expect, it } from 'vitest';
import { deviceName, licencePeriod, licencePeriodText, stateLabel } from './display';

const KST = 9 * 60;
const labels = { lifetime: '평생', unknown: '-' };

describe('licencePeriod', () => {
  const startsAt = '2026-11-22T01:00:00+00:00';

  it('shows 36500 days as lifetime, without a range', () => {
    const period = licencePeriod({ life: 36500, startsAt, expiresAt: '2126-10-29T01:00:00+00:00' }, KST);
    expect(period).toEqual({ kind: 'lifetime' });
    expect(licencePeriodText(period, labels)).toBe('평생');
  });

  it('shows 365 days or fewer from the start to the end date', () => {
    const year = licencePeriod({ life: 365, startsAt, expiresAt: '2027-11-22T01:00:00+00:00' }, KST);
    expect(licencePeriodText(year, labels)).toBe('2026-11-22 ~ 2027-11-22');
    const month = licencePeriod({ life: 30, startsAt, expiresAt: '2026-12-22T01:00:00+00:00' }, KST);
    expect(licencePeriodText(month, labels)).toBe('2026-11-22 ~ 2026-12-22');
  });

  it('shows no end date above 365 days', () => {
    const period = licencePeriod({ life: 730, startsAt, expiresAt: '2028-11-21T01:00:00+00:00' }, KST);
    expect(licencePeriodText(period, labels)).toBe('2026-11-22 ~');
  });

  it('uses the +09:00 day for instants near midnight', () => {
    const period = licencePeriod({ life: 30, startsAt: '2026-11-21T15:30:00Z', expiresAt: '2026-12-21T15:30:00Z' }, KST);
    expect(licencePeriodText(period, labels)).toBe('2026-11-22 ~ 2026-12-22');
  });

  it('copes with missing dates', () => {
    expect(licencePeriodText(licencePeriod({ life: 30, startsAt: null, expiresAt: null }), labels)).toBe('-');
    expect(licencePeriod({ life: 30, startsAt, expiresAt: null }, KST)).toEqual({ kind: 'open', start: '2026-11-22' });
  });
});

describe('devices and states', () => {
  it('names a device by its registration data, else a fallback with its platform', () => {
    expect(deviceName({ registrationData: { deviceName: ' Galaxy S25 ' }, platform: 'android' }, '이름 없는 기기')).toBe('Galaxy S25');
    expect(deviceName({ registrationData: { deviceName: '' }, platform: 'android' }, '이름 없는 기기')).toBe(
      '이름 없는 기기 (android)',
    );
    expect(deviceName({ registrationData: {}, platform: '' }, 'Unnamed device')).toBe('Unnamed device');
  });

  it('labels known states and shows unknown ones as they are', () => {
    expect(stateLabel({ active: '사용 중' }, 'active')).toBe('사용 중');
    expect(stateLabel({ active: '사용 중' }, 'paused')).toBe('paused');
  });
});
