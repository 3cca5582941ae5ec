import { useForm } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import { useNavigate, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { isOperationError, track } from '../../session/operations';
import { appStore, useAppStore } from '../../store';
import { accountErrorMessage, errorDisplay } from '../../errors/accountErrors';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { type FieldErrorLike, fieldErrorText } from '../../ui/FieldError';
import { PageMeta } from '../../ui/PageMeta';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { zodResolver } from '@hookform/resolvers/zod';
import { patchAccount } from './api';
import { nameSchema, type NameForm } from './schemas';
import '../../ui/kit.css';

/**
 * /{lang}/account/name?zendesk_url=: the support desk needs a name, so a customer without one gives it
 * here and then goes on to the desk's sign-on (or to the account page when no desk address came along).
 */
export default function AccountNamePage() {
  return (
    <RequireScope>
      <NameEntry />
    </RequireScope>
  );
}

function NameEntry() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const zendeskUrl = params.get('zendesk_url') ?? undefined;
  const loading = useAppStore((s) => s.operations.updateAccount?.status === 'request');
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NameForm>({ resolver: zodResolver(nameSchema), defaultValues: { name: '' } });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      const updated = await track(appStore, 'updateAccount', () => patchAccount({ name }));
      appStore.getState().setAccount(updated);
      navigate(zendeskUrl === undefined ? paths.account() : paths.ssoZendesk({ zendesk_url: zendeskUrl }), {
        replace: true,
      });
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (errorDisplay('accountModify', error.code) === 'text') {
        setError('name', { type: 'server', message: accountErrorMessage(t, error) }, { shouldFocus: true });
      } else {
        show({ title: t.auth.errorTitles.accountModify, message: accountErrorMessage(t, error) });
      }
    }
  });

  return (
    <section className="form-page">
      <PageMeta title={t.support.name.heading} />
      <h1 className="page__heading">{t.support.name.heading}</h1>
      <p>{t.support.name.lead}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.account.name.label}
          error={text(errors.name)}
          inputProps={{ type: 'text', autoComplete: 'nickname', ...register('name') }}
        />
        <Button type="submit" loading={loading}>{t.support.name.submit}</Button>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
