import { Link } from 'wouter';
import { useT } from '../../i18n/useT';
import { usePaths } from '../../routing/usePaths';
import { PageMeta } from '../../ui/PageMeta';
import '../../ui/kit.css';

/** After a new password is set. */
export default function PasswordResetConfirmPage() {
  const t = useT();
  const paths = usePaths();
  return (
    <section className="form-page">
      <PageMeta title={t.auth.passwordResetConfirm.heading} />
      <h1 className="page__heading">{t.auth.passwordResetConfirm.heading}</h1>
      <p>{t.auth.passwordResetConfirm.body}</p>
      <Link className="button button--primary" to={paths.login()}>
        {t.auth.actions.goLogin}
      </Link>
    </section>
  );
}
