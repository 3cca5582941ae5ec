/** Calls shared by several features, typed from the generated schema. */
import { apiClient, type ApiClient } from './client';
import { typedGet, type Schema } from './typed';

export type EmailCheck = Schema<'EmailCheck'>;

/** GET /health: 200 when the event store and the broker answer, else the call rejects. */
export function getHealth(client: ApiClient = apiClient) {
  return typedGet('/health', {}, client);
}

/** GET /accounts/check?email=: whether an email is already registered. */
export function checkEmail(email: string, client: ApiClient = apiClient): Promise<EmailCheck> {
  return typedGet('/accounts/check', { query: { email } }, client);
}
