import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { clearClientSession } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { accountErrorMessage } from '../../errors/accountErrors';
import { ExpiredLink } from '../../ui/ExpiredLink';
import { AlertDialog } from '../../ui/AlertDialog';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import { putEmailChange } from './api';
import '../../ui/kit.css';

type State = { step: 'checking' } | { step: 'done'; email?: string | undefined } | { step: 'expired' } | { step: 'failed' };

/**
 * Target of the email-change mail (`?t=`): the token is sent to PUT /accounts/email-change. Success ends
 * every session of the account, so the page forgets the user and offers to log in with the new address.
 * An expired link shows the message and goes home.
 */
export default function EmailChangeConfirmPage() {
  const t = useT();
  const paths = usePaths();
  const [params] = useSearchParams();
  const token = params.get('t') ?? params.get('token') ?? '';
  const user = useAppStore((s) => s.user);
  const [state, setState] = useState<State>(token ? { step: 'checking' } : { step: 'expired' });
  const { alert, show, close } = useAlert();

  useEffect(() => {
    if (!token) return;
    let active = true;
    track(appStore, 'emailChange', () => putEmailChange(token)).then(
      (result) => {
        if (!active) return;
        setState({ step: 'done', email: result?.email });
        // The move ended every session of the account, this browser's too: forget the user (log in again).
        if (appStore.getState().user) clearClientSession(appStore);
      },
      (error: unknown) => {
        if (!active) return;
        if (isOperationError(error) && (error.code === -405 || error.code === 401 || error.code === -2)) {
          setState({ step: 'expired' });
        } else {
          setState({ step: 'failed' });
          if (isOperationError(error)) show({ title: t.auth.errorTitles.emailChange, message: accountErrorMessage(t, error) });
        }
      },
    );
    return () => {
      active = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- The token is used once.
  }, [token]);

  if (state.step === 'expired') return <ExpiredLink />;
  if (state.step === 'checking') return <PageLoading />;

  return (
    <section className="form-page">
      <PageMeta title={t.account.emailChangeConfirm.heading} />
      <h1 className="page__heading">{t.account.emailChangeConfirm.heading}</h1>
      {state.step === 'done' && (
        <StatusLine>
          {state.email ? format(t.account.emailChangeConfirm.doneTo, { email: state.email }) : t.account.emailChangeConfirm.done}
        </StatusLine>
      )}
      {state.step === 'done' && <p>{t.account.emailChangeConfirm.loginAgain}</p>}
      <Link className="button button--primary" to={user ? paths.account() : paths.login()}>
        {user ? t.account.heading : t.auth.actions.goLogin}
      </Link>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
