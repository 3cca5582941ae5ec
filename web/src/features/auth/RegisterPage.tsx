import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { LANGUAGES } from '../../i18n/languages';
import { useT } from '../../i18n/useT';
import { useNavigate, useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { writeLangCookie } from '../../session/cookies';
import { isOperationError, track } from '../../session/operations';
import { logIn } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { checkEmail as getEmailCheck } from '../../api/endpoints';
import { postRegistration } from './api';
import { errorDisplay, accountErrorMessage } from '../../errors/accountErrors';
import { AGREEMENTS, type AgreementName } from '../../forms/fields';
import { registerSchema, type RegisterForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { AgreementsFieldset } from '../../ui/AgreementsFieldset';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

/** State handed to email-auth: the new account's id, for resending the confirmation mail. */
export interface EmailAuthState {
  userId?: string;
}

/**
 * Registration (spec sections 4 and 5): email, password, language, marketing consent and the four
 * required agreements with agree-all. A confirmed account is logged in and goes to the licence
 * page; otherwise to email-auth.
 */
export default function RegisterPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userLicenseKey = params.get('userLicenseKey') ?? undefined;
  // The receipt's register link signs the address it was mailed to: sent along, it proves the mailbox.
  const receiptToken = params.get('t') ?? undefined;
  // From the receipt of a guest's purchase: the buyer gave the four agreements on the purchase page, for the same
  // documents; the page carries them instead of asking again (docs/guest-registration.md).
  const fromReceipt = receiptToken !== undefined && userLicenseKey !== undefined;
  const loading = useAppStore((s) => s.operations.register?.status === 'request' || s.operations.login?.status === 'request');
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    getValues,
    formState: { errors },
  } = useForm<RegisterForm>({
    resolver: zodResolver(registerSchema),
    defaultValues: {
      email: params.get('email') ?? '',
      pw: '',
      pwConfirm: '',
      language: lang,
      marketingPushEnabled: false,
      agreeTerms: fromReceipt,
      agreePurchase: fromReceipt,
      agreePersonal: fromReceipt,
      agreePrivacy: fromReceipt,
    },
  });

  const agreements = watch([...AGREEMENTS]);
  const allAgreed = agreements.every(Boolean);
  const agreementError = AGREEMENTS.map((name) => errors[name]).find(Boolean);

  const setAll = (checked: boolean) => {
    for (const name of AGREEMENTS) setValue(name, checked, { shouldValidate: false, shouldDirty: true });
  };

  const checkEmail = async () => {
    const email = getValues('email').trim();
    // From the receipt's link the address may already hold an account: registering with the link claims it.
    if (!email || errors.email || receiptToken) return;
    try {
      const { isRegistered } = await track(appStore, 'checkEmail', () => getEmailCheck(email));
      if (isRegistered) setError('email', { type: 'server', message: accountErrorMessage(t, { code: -402 }) });
    } catch {
      // The check only helps early; registration itself answers -402.
    }
  };

  const onSubmit = handleSubmit(async (form) => {
    try {
      const result = await track(appStore, 'register', () =>
        postRegistration(
          {
            email: form.email,
            pw: form.pw,
            language: form.language,
            marketingPushEnabled: form.marketingPushEnabled,
          },
          userLicenseKey,
          receiptToken,
        ),
      );
      if (result.emailConfirmed) {
        await logIn(appStore, { email: form.email, pw: form.pw });
        writeLangCookie(form.language);
        navigate(paths.license({ userLicenseKey, email: form.email }), { replace: true });
        return;
      }
      const state: EmailAuthState = { userId: result.userId };
      navigate(paths.emailAuth({ email: form.email }), { replace: true, state });
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('signUp', error.code) === 'text') {
        setError('email', { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        show({ title: t.auth.errorTitles.signUp, message: accountErrorMessage(t, error) });
      }
    }
  });

  /** Validation keys are translated; server messages (type "server") are shown as they are. */
  const emailError = text(errors.email);

  const docs = t.auth.register.documents;
  const agreementRows: { name: AgreementName; label: string; document: string; href: string }[] = [
    { name: 'agreeTerms', label: t.auth.register.termsOfUse, document: docs.termsOfUse, href: paths.terms() },
    { name: 'agreePurchase', label: t.auth.register.purchasePolicy, document: docs.purchasePolicy, href: paths.terms() },
    { name: 'agreePersonal', label: t.auth.register.personalInfo, document: docs.personalInfo, href: paths.privacyPolicy() },
    { name: 'agreePrivacy', label: t.auth.register.privacyPolicy, document: docs.privacyPolicy, href: paths.privacyPolicy() },
  ];

  return (
    <section className="form-page">
      <PageMeta title={fromReceipt ? t.auth.register.fromReceipt.heading : t.auth.register.heading} />
      <h1 className="page__heading">{fromReceipt ? t.auth.register.fromReceipt.heading : t.auth.register.heading}</h1>
      {fromReceipt && (
        <p className="form-page__lead" data-testid="register-licence-note">
          {format(t.auth.register.fromReceipt.lead, { key: userLicenseKey, email: params.get('email') ?? '' })}
        </p>
      )}
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.email}
          error={emailError}
          inputProps={{
            type: 'email',
            autoComplete: 'email',
            placeholder: t.auth.fields.emailPlaceholder,
            ...register('email', { onBlur: () => void checkEmail() }),
          }}
        />
        <TextField
          label={t.auth.fields.password}
          hint={t.auth.fields.passwordHint}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'new-password', ...register('pw') }}
        />
        <TextField
          label={t.auth.fields.passwordConfirm}
          error={text(errors.pwConfirm)}
          inputProps={{ type: 'password', autoComplete: 'new-password', ...register('pwConfirm') }}
        />
        <div className="field">
          <label htmlFor="register-language" className="field__label">
            {t.auth.register.language}
          </label>
          <select id="register-language" {...register('language')}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t.account.language.names[code]}
              </option>
            ))}
          </select>
        </div>
        <label className="check">
          <input type="checkbox" {...register('marketingPushEnabled')} />
          {t.auth.register.marketing}
        </label>

        {fromReceipt ? (
          <div className="agreements agreements--given" data-testid="register-agreements-given">
            <p className="hint">{t.auth.register.fromReceipt.agreed}</p>
            <ul className="agreements__given">
              {agreementRows.map((row) => (
                <li key={row.name}>
                  <a href={row.href} target="_blank" rel="noreferrer">
                    {row.document}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <AgreementsFieldset
            legend={t.auth.register.agreementsHeading}
            agreeAllLabel={t.auth.register.agreeAll}
            allChecked={allAgreed}
            onAllChange={setAll}
            rows={agreementRows.map((row) => ({ label: row.label, href: row.href, input: register(row.name) }))}
            viewLabel={t.auth.register.view}
            error={text(agreementError)}
            errorId="register-agreements-error"
          />
        )}

        <Button type="submit" loading={loading}>
          {fromReceipt ? t.auth.register.fromReceipt.submit : t.auth.register.submit}
        </Button>
      </form>
      <div className="form-links">
        <span>
          {t.auth.register.haveAccount} <Link to={paths.login()}>{t.auth.register.login}</Link>
        </span>
      </div>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
