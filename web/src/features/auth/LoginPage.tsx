import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useNavigate, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { afterLoginPath, returnPath } from '../../session/navigation';
import { isOperationError } from '../../session/operations';
import { logIn } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { accountErrorMessage, errorDisplay } from '../../errors/accountErrors';
import { loginErrorMessage } from './loginError';
import { loginSchema, type LoginForm } from './schemas';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { FieldError, type FieldErrorLike, fieldErrorText } from '../../ui/FieldError';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

/**
 * Login (spec section 4): afterwards the previous page, or register/auth when scope is 0; with a
 * return_to query (sent by the support-desk sign-on) back to the sign-on page with that desk address.
 */
export default function LoginPage() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const location = useCurrentLocation();
  const [params] = useSearchParams();
  const loading = useAppStore((s) => s.operations.login?.status === 'request');
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  // Arriving from a guest purchase's "go to licence management": the account's password is set from the mail first.
  const setPasswordFor = (location.state as { setPasswordFor?: unknown } | null | undefined)?.setPasswordFor;
  const guestEmail = typeof setPasswordFor === 'string' ? setPasswordFor : undefined;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: params.get('email') ?? guestEmail ?? '', pw: '' },
  });

  const onSubmit = handleSubmit(async (form) => {
    try {
      const { user, account } = await logIn(appStore, form);
      const returnTo = params.get('return_to');
      navigate(
        afterLoginPath({
          user,
          from: returnTo === null ? returnPath(location.state) : paths.ssoZendesk({ zendesk_url: returnTo || undefined }),
          home: paths.home(),
          registerAuth: paths.registerAuth(),
          preferredLanguage: account?.prefferedLanguage,
        }),
        { replace: true },
      );
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('login', error.code) === 'text') {
        setError('root.server', { type: 'server', message: loginErrorMessage(t, error) });
      } else {
        show({ title: t.auth.errorTitles.login, message: accountErrorMessage(t, error) });
      }
    }
  });

  return (
    <section className="form-page">
      <PageMeta title={t.auth.login.heading} />
      <h1 className="page__heading">{t.auth.login.heading}</h1>
      {guestEmail && (
        <p className="hint" data-testid="set-password-note">
          {format(t.auth.login.setPasswordNote, { email: guestEmail })}
        </p>
      )}
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.email}
          error={text(errors.email)}
          inputProps={{ type: 'email', autoComplete: 'email', ...register('email') }}
        />
        <TextField
          label={t.auth.fields.password}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        <FieldError id="login-server-error">{errors.root?.server?.message}</FieldError>
        <Button type="submit" loading={loading}>{t.auth.login.submit}</Button>
      </form>
      <div className="form-links">
        <span>
          {t.auth.login.noAccount} <Link to={paths.register()}>{t.auth.login.register}</Link>
        </span>
        <Link to={paths.passwordFind()}>{t.auth.login.forgotPassword}</Link>
      </div>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
