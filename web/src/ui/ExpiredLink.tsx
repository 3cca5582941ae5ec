import { useEffect } from 'react';
import { Link } from 'wouter';
import { useT } from '../i18n/useT';
import { useNavigate } from '../routing/location';
import { usePaths } from '../routing/usePaths';
import { PageMeta } from './PageMeta';
import { StatusLine } from './StatusLine';

/** How long the expired-link message stays before going home. */
export const EXPIRED_LINK_REDIRECT_MS = 3000;

/** Spec section 8: an expired link shows "the URL is an expired link", then goes home. */
export function ExpiredLink() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const home = paths.home();
  useEffect(() => {
    const timer = window.setTimeout(() => navigate(home, { replace: true }), EXPIRED_LINK_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, home]);
  return (
    <section className="form-page">
      <PageMeta title={t.auth.errorTitles.linkExpiry} />
      <h1 className="page__heading">{t.auth.errorTitles.linkExpiry}</h1>
      <StatusLine tone="error">{t.auth.expiredLink}</StatusLine>
      <Link to={home}>{t.auth.actions.goHome}</Link>
    </section>
  );
}
