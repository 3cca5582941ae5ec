import type { Account, AuthAnswer } from '../api/models';

/** Body of POST /auth/login and GET /auth/refresh (spec section 3); `exp` is in epoch seconds. */
export type AuthResponse = AuthAnswer;

/** The logged-in user as the client keeps it; `expiredAt` is in epoch milliseconds. */
export interface AuthUser {
  userId: string;
  email: string;
  scope: number;
  accessToken: string;
  expiredAt: number;
}

/**
 * GET/PATCH /accounts: one's own account, as the server's schema says (the server spells the
 * language field `prefferedLanguage`).
 */
export type AccountInfo = Account;

/** A failed operation as the store keeps it: the derived code and the body, for the message. */
export interface OperationError {
  code: number;
  body?: unknown;
  /** No answer came (the connection is down or timed out): the customer's connection, not the server, is at fault. */
  network?: boolean;
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
