import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '../../forms/zod';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useNavigate, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { isOperationError, track } from '../../session/operations';
import { startSession } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { getClaimCheck, postClaim } from './api';
import { accountErrorMessage } from '../../errors/accountErrors';
import { ExpiredLink } from '../../ui/ExpiredLink';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import type { ValidationKey } from './schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/kit.css';

const claimSchema = z.object({ pw: z.string().min(1, 'required' satisfies ValidationKey) });
type ClaimForm = z.infer<typeof claimSchema>;

/**
 * The link mailed when someone registers with an address a guest's purchase opened (`?t=`): the owner of the
 * mailbox enters the password they chose when registering, the guest's licences become theirs and they are
 * logged in. The link alone changes nothing, so a link mailed for someone else's registration is harmless.
 */
export default function RegisterClaimPage() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const [email, setEmail] = useState<string | null | 'expired'>(token ? null : 'expired');
  const loading = useAppStore((s) => s.operations.login?.status === 'request');
  const { alert, show, close } = useAlert();
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.auth.validation);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ClaimForm>({ resolver: zodResolver(claimSchema), defaultValues: { pw: '' } });

  useEffect(() => {
    if (!token) return;
    let active = true;
    track(appStore, 'claimCheck', () => getClaimCheck(token)).then(
      (link) => active && setEmail(link.email),
      () => active && setEmail('expired'),
    );
    return () => {
      active = false;
    };
  }, [token]);

  const onSubmit = handleSubmit(async ({ pw }) => {
    try {
      await startSession(appStore, () => postClaim(token, pw));
      navigate(paths.license(), { replace: true });
    } catch (error) {
      if (!isOperationError(error)) throw error;
      if (error.code === -405) setEmail('expired');
      else show({ title: t.auth.errorTitles.login, message: accountErrorMessage(t, error) });
    }
  });

  if (email === 'expired') return <ExpiredLink />;
  if (email === null) return <PageLoading />;

  return (
    <section className="form-page">
      <PageMeta title={t.auth.registerClaim.heading} />
      <h1 className="page__heading">{t.auth.registerClaim.heading}</h1>
      <p className="form-page__lead">{format(t.auth.registerClaim.lead, { email })}</p>
      <form className="form-stack" noValidate onSubmit={onSubmit}>
        <TextField
          label={t.auth.fields.password}
          error={text(errors.pw)}
          inputProps={{ type: 'password', autoComplete: 'current-password', ...register('pw') }}
        />
        <Button type="submit" loading={loading}>{t.auth.registerClaim.submit}</Button>
      </form>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
