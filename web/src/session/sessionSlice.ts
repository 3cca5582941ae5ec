import type { AppSliceCreator } from '../store/types';
import type { AccountInfo, AuthUser, OperationError, OperationState } from './types';

/** Names of the asynchronous account and auth operations the store tracks. */
export type OperationName =
  | 'login'
  | 'refresh'
  | 'logout'
  | 'register'
  | 'resendConfirmation'
  | 'checkEmail'
  | 'loadAccount'
  | 'updateAccount'
  | 'checkPassword'
  | 'deleteAccount'
  | 'passwordResetMail'
  | 'passwordResetCheck'
  | 'claimCheck'
  | 'passwordChange'
  | 'emailChangeMail'
  | 'emailChange';

/**
 * The logged-in user and their account (spec section 4). `sessionChecked` turns true once the
 * client knows whether a session exists (after the first renewal attempt, or at once without the
 * `logged_in` cookie); pages needing scope 1 wait for it before sending anyone to login.
 */
export interface SessionSlice {
  user: AuthUser | null;
  account: AccountInfo | null;
  sessionChecked: boolean;
  operations: Partial<Record<OperationName, OperationState>>;
  /** Marks an operation as started. */
  operationRequest: (name: OperationName) => void;
  /** Marks an operation as done. */
  operationSuccess: (name: OperationName) => void;
  /** Marks an operation as failed with its error. */
  operationFailure: (name: OperationName, error: OperationError) => void;
  /** Stores the user from a login or refresh answer. */
  setUser: (user: AuthUser) => void;
  setAccount: (account: AccountInfo | null) => void;
  setSessionChecked: () => void;
  /** Clears user and account (logout, failed renewal, `logged_in` cookie mismatch). */
  clearSession: () => void;
}

export const createSessionSlice: AppSliceCreator<SessionSlice> = (set) => ({
  user: null,
  account: null,
  sessionChecked: false,
  operations: {},
  operationRequest: (name) =>
    set((s) => ({ operations: { ...s.operations, [name]: { status: 'request' } } }), undefined, `${name}/request`),
  operationSuccess: (name) =>
    set((s) => ({ operations: { ...s.operations, [name]: { status: 'success' } } }), undefined, `${name}/success`),
  operationFailure: (name, error) =>
    set(
      (s) => ({ operations: { ...s.operations, [name]: { status: 'failure', error } } }),
      undefined,
      `${name}/failure`,
    ),
  setUser: (user) => set({ user }, undefined, 'session/setUser'),
  setAccount: (account) => set({ account }, undefined, 'session/setAccount'),
  setSessionChecked: () => set({ sessionChecked: true }, undefined, 'session/checked'),
  clearSession: () => set({ user: null, account: null }, undefined, 'session/clear'),
});
