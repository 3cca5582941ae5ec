/** Calls of the purchase page, typed from the server's schema: licences on sale, order, confirmation, card subscription. */
import type { ApiClient } from '../../api/client';
import type {
  ConfirmedPurchase,
  NewCardSubscriptionBody,
  PaymentConfirmationBody,
  PaymentRequest,
  PurchasableLicence,
  PurchaseOrderBody,
  SavedCardSubscriptionBody,
  Subscription,
  Wallet,
} from '../../api/models';
import { apiGet, apiPost } from '../../api/typed';
import type { Lang } from '../../i18n/languages';

/** GET /purchasable-licenses/new: the licences on sale, for a coupon code, some ids or one period. */
export function getPurchasableLicences(
  query: { code?: string; licenseIds?: readonly number[]; life?: number } = {},
  client?: ApiClient,
): Promise<PurchasableLicence[]> {
  const filter = query.life === undefined ? {} : { op: 'eq', prop: 'life', value: query.life };
  return apiGet('/purchasable-licenses/new', {
    query: {
      code: query.code || undefined,
      licenseIds: query.licenseIds?.length ? query.licenseIds.join(',') : undefined,
      ...filter,
    },
    client,
  });
}

/** POST /payments/licenses/new: the order, with the merchantUid and what request_pay needs. */
export function postPurchase(body: PurchaseOrderBody, token: string | null, client?: ApiClient): Promise<PaymentRequest> {
  return apiPost('/payments/licenses/new', { body, token, client });
}

/** POST /payments/licenses/new/confirm: the server re-reads the payment and issues the licence. */
export function postPurchaseConfirm(
  body: PaymentConfirmationBody,
  lang: Lang,
  token: string | null,
  client?: ApiClient,
): Promise<ConfirmedPurchase> {
  return apiPost('/payments/licenses/new/confirm', { body, query: { localeCode: lang }, token, client });
}

/** POST /payments/licenses/subscribe/new/new-billingkey: registers the card and starts the subscription. */
export function postSubscriptionWithNewCard(
  body: NewCardSubscriptionBody,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/new/new-billingkey', { body, token, client });
}

/** POST /payments/licenses/subscribe/new: starts the subscription with a card already registered (`billingkeyId`). */
export function postSubscriptionWithSavedCard(
  body: SavedCardSubscriptionBody,
  token: string | null,
  client?: ApiClient,
): Promise<Subscription> {
  return apiPost('/payments/licenses/subscribe/new', { body, token, client });
}

/** GET /billingkeys: the member's registered cards, offered beside a new one. */
export function getSavedCards(token: string | null, client?: ApiClient): Promise<Wallet> {
  return apiGet('/billingkeys', { token, client });
}
