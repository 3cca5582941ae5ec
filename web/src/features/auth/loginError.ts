/** How a failed login reads. */
import { accountErrorMessage } from '../../errors/accountErrors';
import type { Catalogue } from '../../i18n/catalogues';
import type { OperationError } from '../../session/types';

/** Login's 401 reads "email or password does not match", not "unauthorised user". */
export function loginErrorMessage(t: Catalogue, error: OperationError): string {
  return error.code === 401 || error.code === -400 ? t.auth.login.mismatch : accountErrorMessage(t, error);
}
