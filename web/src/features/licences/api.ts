/** Licence calls of the licence pages (bearer). */
import { apiClient, type ApiClient } from '../../api/client';
import type { UserLicence, UserLicenceDetail } from '../payments/types';

export function getMyLicences(token: string | null, api: ApiClient = apiClient): Promise<UserLicence[]> {
  return api.request<UserLicence[]>('/licenses/mine', { token });
}

export function getMyLicence(userLicenseId: string, token: string | null, api: ApiClient = apiClient): Promise<UserLicenceDetail> {
  return api.request<UserLicenceDetail>(`/licenses/mine/${encodeURIComponent(userLicenseId)}`, { token });
}

export function renameDevice(
  userLicenseId: string | number,
  deviceId: string | number,
  deviceName: string,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<unknown> {
  return api.request(`/licenses/${encodeURIComponent(userLicenseId)}/devices/${encodeURIComponent(deviceId)}`, {
    method: 'PATCH',
    body: { deviceName },
    token,
  });
}

export function removeDevice(
  userLicenseId: string | number,
  deviceId: string | number,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<unknown> {
  return api.request(`/licenses/${encodeURIComponent(userLicenseId)}/devices/${encodeURIComponent(deviceId)}`, {
    method: 'DELETE',
    token,
  });
}

/** POST /licenses/{licenseKey}/giveme: registers a licence by its key. */
export function registerLicenceKey(licenseKey: string, token: string | null, api: ApiClient = apiClient): Promise<unknown> {
  return api.request(`/licenses/${encodeURIComponent(licenseKey)}/giveme`, { method: 'POST', token });
}

export function joinOpenBeta(token: string | null, api: ApiClient = apiClient): Promise<unknown> {
  return api.request('/licenses/open-beta', { method: 'POST', token });
}
