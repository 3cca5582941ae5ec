import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postPasswordResetMail } from '../../api/endpoints';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import { emailOnlySchema, type EmailOnlyForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

/** Password reset request: mail a reset link, then the find/auth page (spec section 4). */
export default function PasswordFindPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const loading = useAppStore((s) => s.operations.passwordResetMail?.status === 'request');
  const [message, setMessage] = useState<string>();
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EmailOnlyForm>({ resolver: zodResolver(emailOnlySchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setMessage(undefined);
    try {
      await track(appStore, 'passwordResetMail', () => postPasswordResetMail(email, false, lang));
      navigate(paths.passwordFindAuth({ email }));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('passwordReset', error.code) === 'message') setMessage(accountErrorMessage(t, error));
      else show({ title: t.auth.errorTitles.passwordReset, message: accountErrorMessage(t, error) });
    }
  });

  return (
    <section className="form-page">
      <PageMeta title={t.auth.passwordFind.heading} />
      <h1 className="page__heading">{t.auth.passwordFind.heading}</h1>
      <p className="form-page__lead">{t.auth.passwordFind.lead}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.email}
          error={text(errors.email)}
          inputProps={{ type: 'email', autoComplete: 'email', ...register('email') }}
        />
        <StatusLine tone="error">{message}</StatusLine>
        <Button type="submit" loading={loading}>{t.auth.passwordFind.submit}</Button>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
