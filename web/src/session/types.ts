import type { Schema } from '../api/typed';
import type { Lang } from '../i18n/languages';

/** Body of POST /auth/login and GET /auth/refresh (spec section 3); `exp` is in epoch seconds. */
export type AuthResponse = Schema<'AuthBody'>;

/** The logged-in user as the client keeps it; `expiredAt` is in epoch milliseconds. */
export interface AuthUser {
  userId: string;
  email: string;
  scope: number;
  accessToken: string;
  expiredAt: number;
}

/** GET/PATCH /accounts: one's own account. The server spells the language field `prefferedLanguage`. */
export interface AccountInfo {
  id: string;
  email: string;
  name: string | null;
  prefferedLanguage: Lang;
  marketingPushEnabled: boolean;
  emailConfirmed?: boolean;
}

/** Compile-time check that the server's AccountBody (generated schema) fits AccountInfo. */
type Fits<Target, Source extends Target> = Source;
export type ServerAccountFits = Fits<AccountInfo, Schema<'AccountBody'>>;

/** A failed operation as the store keeps it: the derived code and the body, for the message. */
export interface OperationError {
  code: number;
  body?: unknown;
}

/** Every asynchronous operation goes request, then success or failure (spec section 4). */
export type OperationStatus = 'idle' | 'request' | 'success' | 'failure';

export interface OperationState {
  status: OperationStatus;
  error?: OperationError;
}

export function toAuthUser(response: AuthResponse): AuthUser {
  return {
    userId: String(response.id),
    email: response.email,
    scope: Number(response.scope),
    accessToken: response.accessToken,
    expiredAt: Number(response.exp) * 1000,
  };
}
