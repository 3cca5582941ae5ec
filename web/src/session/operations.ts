import { ApiError } from '../api/client';
import { FALLBACK_ERROR_CODE } from '../api/errors';
import type { AppStore } from '../store';
import type { OperationName } from './sessionSlice';
import type { OperationError } from './types';

/** The store's form of any failure: ApiError keeps its code and body, anything else is -1002. */
export function toOperationError(error: unknown): OperationError {
  if (error instanceof ApiError) {
    return error.reason === 'response' ? { code: error.code, body: error.body } : { code: error.code, network: true };
  }
  return { code: FALLBACK_ERROR_CODE };
}

/**
 * Runs an asynchronous operation through request, then success or failure in the store.
 * Resolves with the result; rejects with the OperationError after recording it.
 */
export async function track<T>(store: AppStore, name: OperationName, run: () => Promise<T>): Promise<T> {
  store.getState().operationRequest(name);
  try {
    const result = await run();
    store.getState().operationSuccess(name);
    return result;
  } catch (error) {
    const failure = toOperationError(error);
    store.getState().operationFailure(name, failure);
    throw failure;
  }
}

export function isOperationError(value: unknown): value is OperationError {
  return value !== null && typeof value === 'object' && typeof (value as OperationError).code === 'number';
}
