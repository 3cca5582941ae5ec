/** Calls of the upgrade page, typed from the server's schema. */
import type { ApiClient } from '../../api/client';
import type {
  CardBody,
  ConfirmedUpgrade,
  Subscription,
  UpgradeOptions,
  UpgradePaymentRequest,
} from '../../api/models';
import { apiGet, apiPost } from '../../api/typed';

/** GET /purchasable-licenses/upgrade/licenses/{id}: the plans the licence may move to now (404 / -109: none). */
export function getUpgradeOptions(
  userLicenseId: string,
  token: string | null,
  client?: ApiClient,
  code?: string,
): Promise<UpgradeOptions> {
  return apiGet('/purchasable-licenses/upgrade/licenses/{user_license_id}', {
    params: { user_license_id: userLicenseId },
    query: code ? { code } : undefined,
    token,
    client,
  });
}

/** POST /payments/licenses/{id}/upgrade: fixes the upgrade's price (quote less credit) under a new merchantUid. */
export function postUpgrade(
  userLicenseId: string,
  body: { licenseId: number; paymentMethod: string; requestPrice: number; code?: string },
  token: string | null,
  client?: ApiClient,
): Promise<UpgradePaymentRequest> {
  return apiPost('/payments/licenses/{user_license_id}/upgrade', {
    params: { user_license_id: userLicenseId },
    body,
    token,
    client,
  });
}

/** POST /payments/licenses/upgrade/confirm: the server re-reads the payment and upgrades the licence once. */
export function postUpgradeConfirm(
  body: { impUid: string; merchantUid: string },
  token: string | null,
  client?: ApiClient,
): Promise<ConfirmedUpgrade> {
  return apiPost('/payments/licenses/upgrade/confirm', { body, token, client });
}

/** POST /payments/licenses/{id}/subscribe/upgrade/new-billingkey: registers a typed card and upgrades with it. */
export function postSubscriptionUpgradeWithNewCard(
  userLicenseId: string,
  body: { licenseId: number; requestPrice: number; card: CardBody },
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/{user_license_id}/subscribe/upgrade/new-billingkey', {
    params: { user_license_id: userLicenseId },
    body,
    token,
    client,
  });
}

/** POST /payments/licenses/{id}/subscribe/upgrade: upgrades a subscription, charging its current card. */
export function postSubscriptionUpgrade(
  userLicenseId: string,
  body: { licenseId: number; requestPrice: number },
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/{user_license_id}/subscribe/upgrade', {
    params: { user_license_id: userLicenseId },
    body,
    token,
    client,
  });
}
