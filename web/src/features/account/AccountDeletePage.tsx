import { useForm } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { RequireScope } from '../../session/RequireScope';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import { deleteSchema, type DeleteForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { FieldError, type FieldErrorLike, fieldErrorText } from '../../ui/FieldError';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { zodResolver } from '@hookform/resolvers/zod';
import type { DeletedState } from './AccountDeleteConfirmPage';
import { putDeleteAccount } from './api';
import '../../ui/kit.css';

function AccountDelete() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const user = useAppStore((s) => s.user);
  const loading = useAppStore((s) => s.operations.deleteAccount?.status === 'request');
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
      // The server checks the password as it deletes (-406 when wrong): a token alone deletes nothing.
      await track(appStore, 'deleteAccount', () => putDeleteAccount(pw, deletedReason));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('accountDelete', error.code) === 'text') {
        setError('pw', { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        show({ title: t.auth.errorTitles.accountDelete, message: accountErrorMessage(t, error) });
      }
      return;
    }
    // The confirm page forgets the user once this guarded page is gone (else it would go to login).
    const state: DeletedState = { deleted: true };
    navigate(paths.accountDeleteConfirm({ email }), { replace: true, state });
  });

  return (
    <section className="form-page">
      <PageMeta title={t.account.delete.heading} />
      <h1 className="page__heading">{t.account.delete.heading}</h1>
      <p className="form-page__lead">{t.account.delete.lead}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="account-delete-reason" className="field__label">
            {t.account.delete.reason}
          </label>
          <textarea id="account-delete-reason" rows={4} {...register('deletedReason')} />
        </div>
        <TextField
          label={t.account.delete.password}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        <label className="check">
          <input type="checkbox" aria-describedby="account-delete-ack-error" {...register('acknowledge')} />
          {t.account.delete.acknowledge}
        </label>
        <FieldError id="account-delete-ack-error">{text(errors.acknowledge)}</FieldError>
        <Button type="submit" loading={loading}>{t.account.delete.submit}</Button>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

/** Account deletion: reason and password, PUT /accounts/delete (-406 inline), then the confirm page. */
export default function AccountDeletePage() {
  return (
    <RequireScope>
      <AccountDelete />
    </RequireScope>
  );
}
