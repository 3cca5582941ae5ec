/** Licence calls of the licence pages (bearer), typed from the server's schema. */
import type { ApiClient } from '../../api/client';
import type { UserLicence, UserLicenceDetail } from '../../api/models';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../api/typed';

/** GET /licenses/mine: the user's licences. */
export function getMyLicences(token: string | null, client?: ApiClient): Promise<UserLicence[]> {
  return apiGet('/licenses/mine', { token, client });
}

/** GET /licenses/mine/{user_license_id}: one licence with its devices and payments. */
export function getMyLicence(userLicenseId: string, token: string | null, client?: ApiClient): Promise<UserLicenceDetail> {
  return apiGet('/licenses/mine/{user_license_id}', { params: { user_license_id: userLicenseId }, token, client });
}

/** PATCH /licenses/{user_license_id}/devices/{device_id}: a device's new name (-2 when a change is not allowed). */
export function renameDevice(
  userLicenseId: string,
  deviceId: string,
  deviceName: string,
  token: string | null,
  client?: ApiClient,
) {
  return apiPatch('/licenses/{user_license_id}/devices/{device_id}', {
    params: { user_license_id: userLicenseId, device_id: deviceId },
    body: { deviceName },
    token,
    client,
  });
}

/** DELETE /licenses/{user_license_id}/devices/{device_id}: frees the device's place. */
export function removeDevice(userLicenseId: string, deviceId: string, token: string | null, client?: ApiClient) {
  return apiDelete('/licenses/{user_license_id}/devices/{device_id}', {
    params: { user_license_id: userLicenseId, device_id: deviceId },
    token,
    client,
  });
}

/** POST /licenses/{license_key}/giveme: registers a licence by its key. */
export function registerLicenceKey(licenseKey: string, token: string | null, client?: ApiClient) {
  return apiPost('/licenses/{license_key}/giveme', { params: { license_key: licenseKey }, token, client });
}

/** POST /licenses/open-beta: the account's one open-beta licence. */
export function joinOpenBeta(token: string | null, client?: ApiClient) {
  return apiPost('/licenses/open-beta', { token, client });
}

/** POST /payments/licenses/{merchant_uid}/money-back: the 30-day money-back guarantee (asking again answers the
 * request's state: refunded, waiting for support, or refused with the policy's reason). */
export function askMoneyBack(merchantUid: string, token: string | null, client?: ApiClient) {
  return apiPost('/payments/licenses/{merchant_uid}/money-back', { params: { merchant_uid: merchantUid }, token, client });
}

/** GET /payments/money-back: the caller's money-back requests (newest first), each payment's state for the licence
 * page: waiting for support, refunded, or refused with the policy's reason or support's words. */
export function getMoneyBackRequests(token: string | null, client?: ApiClient) {
  return apiGet('/payments/money-back', { token, client });
}
