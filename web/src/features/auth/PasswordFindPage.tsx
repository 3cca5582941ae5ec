import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postPasswordResetMail } from './api';
import { errorDisplay, errorMessage } from './errors';
import { emailOnlySchema, type EmailOnlyForm } from './schemas';
import { AlertDialog, StatusMessage, SubmitButton, TextField, useAlert, useValidationText } from './ui';
import { zodResolver } from '@hookform/resolvers/zod';

/** Password reset request: mail a reset link, then the find/auth page (spec section 4). */
export default function PasswordFindPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const loading = useAppStore((s) => s.operations.passwordResetMail?.status === 'request');
  const [message, setMessage] = useState<string>();
  const { alert, show, close } = useAlert();
  const text = useValidationText();
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
      if (errorDisplay('passwordReset', error.code) === 'message') setMessage(errorMessage(t, error));
      else show({ title: t.auth.errorTitles.passwordReset, message: errorMessage(t, error) });
    }
  });

  return (
    <section className="auth-page">
      <PageMeta title={t.auth.passwordFind.heading} />
      <h1 className="page__heading">{t.auth.passwordFind.heading}</h1>
      <p className="auth-page__lead">{t.auth.passwordFind.lead}</p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.email}
          error={text(errors.email)}
          inputProps={{ type: 'email', autoComplete: 'email', ...register('email') }}
        />
        <StatusMessage tone="error">{message}</StatusMessage>
        <SubmitButton loading={loading}>{t.auth.passwordFind.submit}</SubmitButton>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
