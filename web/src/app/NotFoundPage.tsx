import { useEffect } from 'react';
import { Link } from 'wouter';
import { announceNotFound } from '../errors/notFound';
import { useShellT } from '../i18n/useT';
import { usePaths } from '../routing/usePaths';
import { PageMeta } from '../ui/PageMeta';

/** Unknown path under a valid language. */
export default function NotFoundPage() {
  const t = useShellT();
  const paths = usePaths();
  useEffect(() => announceNotFound(), []);
  return (
    <section className="page page--centered">
      <PageMeta title={t.notFound.heading} />
      <h1 className="page__heading">{t.notFound.heading}</h1>
      <p>{t.notFound.body}</p>
      <Link to={paths.home()} className="button button--primary">
        {t.notFound.goHome}
      </Link>
    </section>
  );
}
