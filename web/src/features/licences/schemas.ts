/** Forms of the licence pages: register a licence by key, rename a device. Messages are keys of `licences.validation`. */
import { z } from '../../forms/zod';

export type LicenceValidationKey = 'required' | 'licenseKey' | 'deviceName' | 'deviceNameRequired';

/** Licence keys are letters, digits and dashes; spaces around are dropped, case is kept. */
export const licenceKeySchema = z.object({
  licenseKey: z
    .string()
    .trim()
    .min(1, 'required' satisfies LicenceValidationKey)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,62}[A-Za-z0-9]$/, 'licenseKey' satisfies LicenceValidationKey),
});
export type LicenceKeyForm = z.output<typeof licenceKeySchema>;

/** The server takes names of 1 to 50 characters (README, "Devices"). */
export const DEVICE_NAME_MAX = 50;

export const deviceNameSchema = z.object({
  deviceName: z
    .string()
    .trim()
    .min(1, 'deviceNameRequired' satisfies LicenceValidationKey)
    .max(DEVICE_NAME_MAX, 'deviceName' satisfies LicenceValidationKey),
});
export type DeviceNameForm = z.output<typeof deviceNameSchema>;
