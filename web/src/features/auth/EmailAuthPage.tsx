import { useState } from 'react';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postResendConfirmation } from './api';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import type { EmailAuthState } from './RegisterPage';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import '../../ui/kit.css';

/** After registration with an unconfirmed email: check your mail, resend it (spec section 2). */
export default function EmailAuthPage() {
  const t = useT();
  const paths = usePaths();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const { state } = useCurrentLocation();
  const userId = (state as EmailAuthState | null)?.userId;
  const loading = useAppStore((s) => s.operations.resendConfirmation?.status === 'request');
  const [message, setMessage] = useState<string>();
  const { alert, show, close } = useAlert();

  const resend = async () => {
    if (!userId) return;
    setMessage(undefined);
    try {
      await track(appStore, 'resendConfirmation', () => postResendConfirmation(userId));
      setMessage(t.auth.emailAuth.resent);
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('resendMail', error.code) === 'message') setMessage(accountErrorMessage(t, error));
      else show({ title: t.auth.errorTitles.resendMail, message: accountErrorMessage(t, error) });
    }
  };

  return (
    <section className="form-page">
      <PageMeta title={t.auth.emailAuth.heading} />
      <h1 className="page__heading">{t.auth.emailAuth.heading}</h1>
      <p>{format(t.auth.emailAuth.body, { email })}</p>
      <StatusLine>{message}</StatusLine>
      <div className="form-links">
        {userId && (
          <Button type="button" variant="secondary" loading={loading} onClick={() => void resend()}>
            {t.auth.emailAuth.resend}
          </Button>
        )}
        <Link className="button button--primary" to={paths.login({ email })}>
          {t.auth.actions.goLogin}
        </Link>
      </div>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
