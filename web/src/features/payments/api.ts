/** Purchase history calls (bearer). */
import { apiClient, type ApiClient } from '../../api/client';
import type { PaymentRecord } from './types';

export function getPaymentHistory(token: string | null, api: ApiClient = apiClient): Promise<PaymentRecord[]> {
  return api.request<PaymentRecord[]>('/payments/licenses', { token });
}

export function getPayment(merchantUid: string, token: string | null, api: ApiClient = apiClient): Promise<PaymentRecord> {
  return api.request<PaymentRecord>(`/payments/licenses/${encodeURIComponent(merchantUid)}`, { token });
}
