import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { isLang, LANGUAGES, type Lang } from '../../i18n/languages';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { writeLangCookie } from '../../session/cookies';
import { inLanguage } from '../../session/navigation';
import { isOperationError, track } from '../../session/operations';
import { RequireScope } from '../../session/RequireScope';
import type { AccountInfo } from '../../session/types';
import { appStore, useAppStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { postPasswordResetMail } from '../../api/endpoints';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import {
  currentPasswordSchema,
  emailChangeSchema,
  nameSchema,
  type CurrentPasswordForm,
  type EmailChangeForm,
  type NameForm,
} from './schemas';
import { AlertDialog, type AlertContent } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { zodResolver } from '@hookform/resolvers/zod';
import { fetchAccount, patchAccount, postCheckPassword, postEmailChangeMail } from './api';
import '../../ui/kit.css';
import './account.css';

type ShowAlert = (alert: AlertContent) => void;

function NameSection({ account, showAlert }: { account: AccountInfo; showAlert: ShowAlert }) {
  const t = useT();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const loading = useAppStore((s) => s.operations.updateAccount?.status === 'request');
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NameForm>({ resolver: zodResolver(nameSchema), defaultValues: { name: account.name ?? '' } });

  const onSubmit = handleSubmit(async ({ name }) => {
    setSaved(false);
    try {
      const updated = await track(appStore, 'updateAccount', () => patchAccount({ name }));
      appStore.getState().setAccount(updated);
      setSaved(true);
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('accountModify', error.code) === 'text') {
        setError('name', { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        showAlert({ title: t.auth.errorTitles.accountModify, message: accountErrorMessage(t, error) });
      }
    }
  });

  return (
    <section className="account-section" aria-labelledby="account-name-heading">
      <h2 id="account-name-heading">{t.account.name.heading}</h2>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.account.name.label}
          error={text(errors.name)}
          inputProps={{ type: 'text', autoComplete: 'nickname', ...register('name') }}
        />
        {saved && <StatusLine>{t.account.saved}</StatusLine>}
        <Button type="submit" loading={loading}>{t.account.save}</Button>
      </form>
    </section>
  );
}

function LanguageSection({ account, showAlert }: { account: AccountInfo; showAlert: ShowAlert }) {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [language, setLanguage] = useState<Lang>(account.prefferedLanguage);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const updated = await track(appStore, 'updateAccount', () => patchAccount({ prefferedLanguage: language }));
      appStore.getState().setAccount(updated);
      writeLangCookie(language);
      navigate(inLanguage(paths.account(), language));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      showAlert({ title: t.auth.errorTitles.accountModify, message: accountErrorMessage(t, error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="account-language-heading">
      <h2 id="account-language-heading">{t.account.language.heading}</h2>
      <form className="form-stack" onSubmit={(event) => void onSubmit(event)}>
        <div className="field">
          <label htmlFor="account-language" className="field__label">
            {t.account.language.label}
          </label>
          <select
            id="account-language"
            value={language}
            onChange={(event) => isLang(event.target.value) && setLanguage(event.target.value)}
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t.account.language.names[code]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" loading={saving}>{t.account.save}</Button>
      </form>
    </section>
  );
}

function MarketingSection({ account, showAlert }: { account: AccountInfo; showAlert: ShowAlert }) {
  const t = useT();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const onChange = async (enabled: boolean) => {
    setSaved(false);
    setBusy(true);
    try {
      const updated = await track(appStore, 'updateAccount', () => patchAccount({ marketingPushEnabled: enabled }));
      appStore.getState().setAccount(updated);
      setSaved(true);
    } catch (error) {
      if (!isOperationError(error)) throw error;
      showAlert({ title: t.auth.errorTitles.accountModify, message: accountErrorMessage(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="account-marketing-heading">
      <h2 id="account-marketing-heading">{t.account.marketing.heading}</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={account.marketingPushEnabled}
          disabled={busy}
          onChange={(event) => void onChange(event.target.checked)}
        />
        {t.account.marketing.label}
      </label>
      {saved && <StatusLine>{t.account.saved}</StatusLine>}
    </section>
  );
}

function EmailChangeSection({ showAlert }: { showAlert: ShowAlert }) {
  const t = useT();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const loading = useAppStore((s) => s.operations.emailChangeMail?.status === 'request');
  const [sentTo, setSentTo] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<EmailChangeForm>({ resolver: zodResolver(emailChangeSchema), defaultValues: { email: '', pw: '' } });

  const onSubmit = handleSubmit(async ({ email, pw }) => {
    setSentTo(undefined);
    try {
      await track(appStore, 'emailChangeMail', () => postEmailChangeMail(email, pw));
      setSentTo(email);
      reset();
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('emailChange', error.code) === 'text') {
        const field = error.code === -406 ? 'pw' : 'email';
        setError(field, { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        showAlert({ title: t.auth.errorTitles.emailChange, message: accountErrorMessage(t, error) });
      }
    }
  });

  return (
    <section className="account-section" aria-labelledby="account-email-heading">
      <h2 id="account-email-heading">{t.account.emailChange.heading}</h2>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.account.emailChange.newEmail}
          error={text(errors.email)}
          inputProps={{ type: 'email', autoComplete: 'email', ...register('email') }}
        />
        <TextField
          label={t.account.emailChange.password}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        {sentTo && <StatusLine>{format(t.account.emailChange.sent, { email: sentTo })}</StatusLine>}
        <Button type="submit" loading={loading}>{t.account.emailChange.submit}</Button>
      </form>
    </section>
  );
}

function PasswordChangeSection({ account, showAlert }: { account: AccountInfo; showAlert: ShowAlert }) {
  const t = useT();
  const lang = useLang();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const loading = useAppStore(
    (s) => s.operations.checkPassword?.status === 'request' || s.operations.passwordResetMail?.status === 'request',
  );
  const [message, setMessage] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<CurrentPasswordForm>({ resolver: zodResolver(currentPasswordSchema), defaultValues: { pw: '' } });

  const onSubmit = handleSubmit(async ({ pw }) => {
    setMessage(undefined);
    try {
      await track(appStore, 'checkPassword', () => postCheckPassword(pw));
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('passwordChange', error.code) === 'text') {
        setError('pw', { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        showAlert({ title: t.auth.errorTitles.loginCheck, message: accountErrorMessage(t, error) });
      }
      return;
    }
    try {
      await track(appStore, 'passwordResetMail', () => postPasswordResetMail(account.email, false, lang));
      setMessage(format(t.account.passwordChange.sent, { email: account.email }));
      reset();
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('passwordReset', error.code) === 'message') setMessage(accountErrorMessage(t, error));
      else showAlert({ title: t.auth.errorTitles.passwordChange, message: accountErrorMessage(t, error) });
    }
  });

  return (
    <section className="account-section" aria-labelledby="account-password-heading">
      <h2 id="account-password-heading">{t.account.passwordChange.heading}</h2>
      <p className="form-page__lead">{t.account.passwordChange.lead}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.account.passwordChange.current}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        <StatusLine>{message}</StatusLine>
        <Button type="submit" loading={loading}>{t.account.passwordChange.submit}</Button>
      </form>
    </section>
  );
}

function AccountSettings() {
  const t = useT();
  const paths = usePaths();
  const account = useAppStore((s) => s.account);
  const { alert, show, close } = useAlert();

  useEffect(() => {
    track(appStore, 'loadAccount', fetchAccount).then(
      (loaded) => appStore.getState().setAccount(loaded),
      (error: unknown) => {
        // 401 and 403 on loads are silent (spec section 6): the page stays loading.
        if (isOperationError(error) && (error.code === 401 || error.code === 403)) return;
        if (isOperationError(error)) show({ title: t.auth.errorTitles.access, message: accountErrorMessage(t, error) });
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Loaded once per visit of the page.
  }, []);

  return (
    <section className="form-page form-page--wide">
      <PageMeta title={t.account.heading} />
      <h1 className="page__heading">{t.account.heading}</h1>
      {account ? (
        <>
          <p>
            <strong>{t.account.email}</strong> {account.email}
          </p>
          <NameSection key={`name-${account.id}`} account={account} showAlert={show} />
          <LanguageSection key={`lang-${account.prefferedLanguage}`} account={account} showAlert={show} />
          <MarketingSection account={account} showAlert={show} />
          <EmailChangeSection showAlert={show} />
          <PasswordChangeSection account={account} showAlert={show} />
          <section className="account-section" aria-labelledby="account-delete-heading">
            <h2 id="account-delete-heading">{t.account.delete.heading}</h2>
            <p className="form-page__lead">{t.account.delete.lead}</p>
            <Link to={paths.accountDelete()}>{t.account.delete.link}</Link>
          </section>
        </>
      ) : (
        <PageLoading />
      )}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

/** Account settings (spec sections 2-4): name, language, marketing, email and password change, deletion. */
export default function AccountSettingsPage() {
  return (
    <RequireScope>
      <AccountSettings />
    </RequireScope>
  );
}
