import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { RequireUser } from '../../session/RequireScope';
import { renewSession } from '../../session/session';
import { useLogout } from '../../session/useLogout';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postResendConfirmation } from './api';
import { errorDisplay, errorMessage } from './errors';
import { AlertDialog, StatusMessage, SubmitButton, useAlert } from './ui';

/** A logged-in user with scope 0 (email not confirmed): resend the mail, or check again. */
function RegisterAuth() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const logout = useLogout();
  const user = useAppStore((s) => s.user);
  const resending = useAppStore((s) => s.operations.resendConfirmation?.status === 'request');
  const renewing = useAppStore((s) => s.operations.refresh?.status === 'request');
  const [message, setMessage] = useState<string>();
  const { alert, show, close } = useAlert();

  if (!user) return null;

  const resend = async () => {
    setMessage(undefined);
    try {
      await track(appStore, 'resendConfirmation', () => postResendConfirmation(user.userId));
      setMessage(t.auth.emailAuth.resent);
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('resendMail', error.code) === 'message') setMessage(errorMessage(t, error));
      else show({ title: t.auth.errorTitles.resendMail, message: errorMessage(t, error) });
    }
  };

  const checkAgain = async () => {
    setMessage(undefined);
    const renewed = await renewSession(appStore);
    if (renewed && renewed.scope >= 1) navigate(paths.home(), { replace: true });
    else if (renewed) setMessage(t.auth.registerAuth.stillUnconfirmed);
  };

  return (
    <section className="auth-page">
      <PageMeta title={t.auth.registerAuth.heading} />
      <h1 className="page__heading">{t.auth.registerAuth.heading}</h1>
      <p>{format(t.auth.registerAuth.body, { email: user.email })}</p>
      <StatusMessage>{message}</StatusMessage>
      <div className="auth-links">
        <SubmitButton type="button" variant="secondary" loading={resending} onClick={() => void resend()}>
          {t.auth.emailAuth.resend}
        </SubmitButton>
        <SubmitButton type="button" loading={renewing} onClick={() => void checkAgain()}>
          {t.auth.registerAuth.checkAgain}
        </SubmitButton>
        <button type="button" className="button button--secondary" onClick={() => void logout()}>
          {t.auth.menu.logout}
        </button>
      </div>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

export default function RegisterAuthPage() {
  return (
    <RequireUser>
      <RegisterAuth />
    </RequireUser>
  );
}
