/** Purchase history calls (bearer), typed from the server's schema. */
import type { ApiClient } from '../../api/client';
import type { PaymentRecord } from '../../api/models';
import { apiGet } from '../../api/typed';

/** GET /payments/licenses: the user's payments, newest first. */
export function getPaymentHistory(token: string | null, client?: ApiClient): Promise<PaymentRecord[]> {
  return apiGet('/payments/licenses', { token, client });
}

/** GET /payments/licenses/{merchant_uid}: one payment with every field of the record. */
export function getPayment(merchantUid: string, token: string | null, client?: ApiClient): Promise<PaymentRecord> {
  return apiGet('/payments/licenses/{merchant_uid}', { params: { merchant_uid: merchantUid }, token, client });
}
