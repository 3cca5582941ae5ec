import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { useNavigate, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { getPasswordResetCheck, putPasswordChange } from './api';
import { accountErrorMessage } from '../../errors/accountErrors';
import { ExpiredLink } from '../../ui/ExpiredLink';
import { newPasswordSchema, type NewPasswordForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

/**
 * New password from the reset mail's link (`?t=`): the token is checked first (success gives the
 * page scope 1), then the new password is set and the confirm page follows. An expired link shows
 * the expired message and goes home.
 */
export default function PasswordResetPage() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('t') ?? params.get('token') ?? '';
  const [pageScope, setPageScope] = useState<0 | 1 | 'expired'>(token ? 0 : 'expired');
  const loading = useAppStore((s) => s.operations.passwordChange?.status === 'request');
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewPasswordForm>({ resolver: zodResolver(newPasswordSchema), defaultValues: { pw: '', pwConfirm: '' } });

  useEffect(() => {
    if (!token) return;
    let active = true;
    track(appStore, 'passwordResetCheck', () => getPasswordResetCheck(token)).then(
      () => active && setPageScope(1),
      () => active && setPageScope('expired'),
    );
    return () => {
      active = false;
    };
  }, [token]);

  const onSubmit = handleSubmit(async ({ pw }) => {
    try {
      await track(appStore, 'passwordChange', () => putPasswordChange(pw, token));
      navigate(paths.passwordResetConfirm(), { replace: true });
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (error.code === -405) setPageScope('expired');
      else show({ title: t.auth.errorTitles.passwordReset, message: accountErrorMessage(t, error) });
    }
  });

  if (pageScope === 'expired') return <ExpiredLink />;
  if (pageScope === 0) return <PageLoading />;

  return (
    <section className="form-page">
      <PageMeta title={t.auth.passwordReset.heading} />
      <h1 className="page__heading">{t.auth.passwordReset.heading}</h1>
      <p className="form-page__lead">{t.auth.passwordReset.lead}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.newPassword}
          hint={t.auth.fields.passwordHint}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'new-password', ...register('pw') }}
        />
        <TextField
          label={t.auth.fields.passwordConfirm}
          error={text(errors.pwConfirm)}
          inputProps={{ type: 'password', autoComplete: 'new-password', ...register('pwConfirm') }}
        />
        <Button type="submit" loading={loading}>{t.auth.passwordReset.submit}</Button>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
