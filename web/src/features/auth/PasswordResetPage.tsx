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
import { StatusLine } from '../../ui/StatusLine';
import { newPasswordSchema, type NewPasswordForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { Link } from 'wouter';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

/**
 * New password from the reset mail's link (`?t=`): the token is checked first (success gives the
 * page scope 1), then the new password is set and the confirm page follows. An expired link shows
 * that the link expired or was used, with a link to request a new one (issue 29).
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
    setError,
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
      // On a reset, -406 means the new password is the current one: the field says so.
      else if (error.code === -406) setError('pw', { type: 'server', message: t.auth.passwordReset.sameAsCurrent });
      else show({ title: t.auth.errorTitles.passwordReset, message: accountErrorMessage(t, error) });
    }
  });

  if (pageScope === 'expired') {
    // A link that is bad, used or missing its token: say so and offer a new one (no automatic trip home).
    return (
      <section className="form-page">
        <PageMeta title={t.auth.errorTitles.linkExpiry} />
        <h1 className="page__heading">{t.auth.errorTitles.linkExpiry}</h1>
        <StatusLine tone="error">{t.auth.passwordReset.expired}</StatusLine>
        <div className="actions">
          <Link className="button button--primary" to={paths.passwordFind()}>
            {t.auth.passwordReset.requestNew}
          </Link>
          <Link className="button button--secondary" to={paths.home()}>
            {t.auth.actions.goHome}
          </Link>
        </div>
      </section>
    );
  }
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
