import { useEffect } from 'react';
import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { clearClientSession } from '../../session/session';
import { appStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import '../../ui/kit.css';

/** Router state from the delete page: the account is gone, the client forgets its user. */
export interface DeletedState {
  deleted?: boolean;
}

/** After deletion: /{lang}/account/delete/confirm?email= */
export default function AccountDeleteConfirmPage() {
  const t = useT();
  const paths = usePaths();
  const [params] = useSearchParams();
  const { state } = useCurrentLocation();
  const deleted = (state as DeletedState | null)?.deleted === true;
  useEffect(() => {
    if (deleted) clearClientSession(appStore);
  }, [deleted]);
  return (
    <section className="form-page">
      <PageMeta title={t.account.deleteConfirm.heading} />
      <h1 className="page__heading">{t.account.deleteConfirm.heading}</h1>
      <p>{format(t.account.deleteConfirm.body, { email: params.get('email') ?? '' })}</p>
      <Link className="button button--primary" to={paths.home()}>
        {t.auth.actions.goHome}
      </Link>
    </section>
  );
}
