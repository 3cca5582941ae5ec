import { useState } from 'react';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { postPasswordResetMail } from '../../api/endpoints';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import '../../ui/kit.css';

/** After a reset request: check your mail, or send it again (`resend: true`). */
export default function PasswordFindAuthPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const loading = useAppStore((s) => s.operations.passwordResetMail?.status === 'request');
  const [message, setMessage] = useState<string>();
  const { alert, show, close } = useAlert();

  const resend = async () => {
    setMessage(undefined);
    try {
      await track(appStore, 'passwordResetMail', () => postPasswordResetMail(email, true, lang));
      setMessage(t.auth.passwordFindAuth.resent);
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('passwordReset', error.code) === 'message') setMessage(accountErrorMessage(t, error));
      else show({ title: t.auth.errorTitles.resendMail, message: accountErrorMessage(t, error) });
    }
  };

  return (
    <section className="form-page">
      <PageMeta title={t.auth.passwordFindAuth.heading} />
      <h1 className="page__heading">{t.auth.passwordFindAuth.heading}</h1>
      <p>{format(t.auth.passwordFindAuth.body, { email })}</p>
      <StatusLine>{message}</StatusLine>
      <div className="form-links">
        {email && (
          <Button type="button" variant="secondary" loading={loading} onClick={() => void resend()}>
            {t.auth.passwordFindAuth.resend}
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
