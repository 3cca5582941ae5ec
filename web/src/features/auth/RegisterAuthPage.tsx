import { useState } from 'react';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { RequireUser } from '../../session/RequireScope';
import { renewSession } from '../../session/session';
import { useLogout } from '../../session/useLogout';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postResendConfirmation } from './api';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import '../../ui/kit.css';

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
      if (errorDisplay('resendMail', error.code) === 'message') setMessage(accountErrorMessage(t, error));
      else show({ title: t.auth.errorTitles.resendMail, message: accountErrorMessage(t, error) });
    }
  };

  const checkAgain = async () => {
    setMessage(undefined);
    const renewed = await renewSession(appStore);
    if (renewed && renewed.scope >= 1) navigate(paths.home(), { replace: true });
    else if (renewed) setMessage(t.auth.registerAuth.stillUnconfirmed);
  };

  return (
    <section className="form-page">
      <PageMeta title={t.auth.registerAuth.heading} />
      <h1 className="page__heading">{t.auth.registerAuth.heading}</h1>
      <p>{format(t.auth.registerAuth.body, { email: user.email })}</p>
      <StatusLine>{message}</StatusLine>
      <div className="form-links">
        <Button type="button" variant="secondary" loading={resending} onClick={() => void resend()}>
          {t.auth.emailAuth.resend}
        </Button>
        <Button type="button" loading={renewing} onClick={() => void checkAgain()}>
          {t.auth.registerAuth.checkAgain}
        </Button>
        <button type="button" className="button button--secondary" onClick={() => void logout()}>
          {t.menu.logout}
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
