/** Calls of the purchase page: licences on sale, PortOne settings, order and confirmation. */
import { apiClient, type ApiClient } from '../../api/client';
import type { Lang } from '../../i18n/languages';
import { preparePortOne, type Imp } from '../payments/portone';
import type {
  PaymentSettings,
  PurchasableLicence,
  PurchaseConfirmation,
  PurchaseInit,
  PurchaseInitRequest,
  SubscriptionResult,
} from '../payments/types';
import type { CardBody } from './schemas';

export function getPurchasableLicences(
  query: { code?: string; licenseIds?: readonly number[]; life?: number } = {},
  api: ApiClient = apiClient,
): Promise<PurchasableLicence[]> {
  const filter = query.life === undefined ? {} : { op: 'eq', prop: 'life', value: query.life };
  return api.request<PurchasableLicence[]>('/purchasable-licenses/new', {
    query: {
      code: query.code || undefined,
      licenseIds: query.licenseIds?.length ? query.licenseIds.join(',') : undefined,
      ...filter,
    },
  });
}

export function getPaymentSettings(api: ApiClient = apiClient): Promise<PaymentSettings> {
  return api.request<PaymentSettings>('/payments/settings');
}

/** IMP, loaded and initialised once per page life; pages call it early so the gateway's window opens at once. */
export function loadPortOne(): Promise<Imp> {
  return preparePortOne(() => getPaymentSettings());
}

/** POST /payments/licenses/new: the order, with the merchantUid and what request_pay needs. */
export function postPurchase(body: PurchaseInitRequest, token: string | null, api: ApiClient = apiClient): Promise<PurchaseInit> {
  return api.request<PurchaseInit>('/payments/licenses/new', { method: 'POST', body, token });
}

/** POST /payments/licenses/new/confirm: the server re-reads the payment and issues the licence. */
export function postPurchaseConfirm(
  body: { impUid: string; merchantUid: string },
  lang: Lang,
  token: string | null,
  api: ApiClient = apiClient,
): Promise<PurchaseConfirmation> {
  return api.request<PurchaseConfirmation>('/payments/licenses/new/confirm', {
    method: 'POST',
    body,
    token,
    query: { localeCode: lang },
  });
}

/** POST /payments/licenses/subscribe/new/new-billingkey: registers the card and starts the subscription. */
export function postSubscriptionWithNewCard(
  body: { licenseId: number; countryCode: string; card: CardBody },
  token: string | null,
  api: ApiClient = apiClient,
): Promise<SubscriptionResult> {
  return api.request<SubscriptionResult>('/payments/licenses/subscribe/new/new-billingkey', {
    method: 'POST',
    body,
    token,
  });
}
