import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { useT } from '../../i18n/useT';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { RequireScope } from '../../session/RequireScope';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { errorDisplay, errorMessage } from '../auth/errors';
import { deleteSchema, type DeleteForm } from '../auth/schemas';
import { AlertDialog, FieldMessage, SubmitButton, TextField, useAlert, useValidationText } from '../auth/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import type { DeletedState } from './AccountDeleteConfirmPage';
import { postCheckPassword, putDeleteAccount } from './api';

function AccountDelete() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const text = useValidationText();
  const user = useAppStore((s) => s.user);
  const loading = useAppStore(
    (s) => s.operations.checkPassword?.status === 'request' || s.operations.deleteAccount?.status === 'request',
  );
  const { alert, show, close } = useAlert();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DeleteForm>({
    resolver: zodResolver(deleteSchema),
    defaultValues: { deletedReason: '', pw: '', acknowledge: false },
  });

  const onSubmit = handleSubmit(async ({ pw, deletedReason }) => {
    const email = user?.email ?? '';
    try {
      await track(appStore, 'checkPassword', () => postCheckPassword(pw));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('accountDelete', error.code) === 'text') {
        setError('pw', { type: 'server', message: errorMessage(t, error) }, { shouldFocus: true });
      } else {
        show({ title: t.auth.errorTitles.loginCheck, message: errorMessage(t, error) });
      }
      return;
    }
    try {
      await track(appStore, 'deleteAccount', () => putDeleteAccount(deletedReason));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      show({ title: t.auth.errorTitles.accountDelete, message: errorMessage(t, error) });
      return;
    }
    // The confirm page forgets the user once this guarded page is gone (else it would go to login).
    const state: DeletedState = { deleted: true };
    navigate(paths.accountDeleteConfirm({ email }), { replace: true, state });
  });

  return (
    <section className="auth-page">
      <PageMeta title={t.account.delete.heading} />
      <h1 className="page__heading">{t.account.delete.heading}</h1>
      <p className="auth-page__lead">{t.account.delete.lead}</p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <div className="auth-field">
          <label htmlFor="account-delete-reason" className="auth-field__label">
            {t.account.delete.reason}
          </label>
          <textarea id="account-delete-reason" rows={4} {...register('deletedReason')} />
        </div>
        <TextField
          label={t.account.delete.password}
          error={errors.pw?.type === 'server' ? errors.pw.message : text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        <label className="auth-check">
          <input type="checkbox" aria-describedby="account-delete-ack-error" {...register('acknowledge')} />
          {t.account.delete.acknowledge}
        </label>
        <FieldMessage id="account-delete-ack-error">{text(errors.acknowledge)}</FieldMessage>
        <SubmitButton loading={loading}>{t.account.delete.submit}</SubmitButton>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

/** Account deletion: reason, password check (-406 inline), then PUT /accounts/delete and the confirm page. */
export default function AccountDeletePage() {
  return (
    <RequireScope>
      <AccountDelete />
    </RequireScope>
  );
}
