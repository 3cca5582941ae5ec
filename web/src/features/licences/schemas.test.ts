import { describe, expect, it } from 'vitest';
import { deviceNameSchema, licenceKeySchema } from './schemas';

describe('licenceKeySchema', () => {
  it('accepts issued keys, trimmed, with or without dashes', () => {
    expect(licenceKeySchema.parse({ licenseKey: ' 7K3M-Q9TX-2WPA-H4ZD ' })).toEqual({ licenseKey: '7K3M-Q9TX-2WPA-H4ZD' });
    expect(licenceKeySchema.safeParse({ licenseKey: '7k3mq9tx2wpah4zd' }).success).toBe(true);
  });

  it('says what is wrong', () => {
    expect(licenceKeySchema.safeParse({ licenseKey: '  ' }).error?.issues[0]?.message).toBe('required');
    expect(licenceKeySchema.safeParse({ licenseKey: 'KEY!' }).error?.issues[0]?.message).toBe('licenseKey');
    expect(licenceKeySchema.safeParse({ licenseKey: '-ABCD' }).error?.issues[0]?.message).toBe('licenseKey');
  });
});

describe('deviceNameSchema', () => {
  it('needs 1 to 50 characters after trimming, as the server', () => {
    expect(deviceNameSchema.parse({ deviceName: ' My phone ' })).toEqual({ deviceName: 'My phone' });
    expect(deviceNameSchema.safeParse({ deviceName: '   ' }).error?.issues[0]?.message).toBe('deviceNameRequired');
    expect(deviceNameSchema.safeParse({ deviceName: 'x'.repeat(51) }).error?.issues[0]?.message).toBe('deviceName');
    expect(deviceNameSchema.safeParse({ deviceName: 'x'.repeat(50) }).success).toBe(true);
  });
});
