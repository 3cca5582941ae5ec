import { useShellT } from '../i18n/useT';
import { PageMeta } from './PageMeta';

/** A page whose feature is not built yet: its heading and a short note. */
export function PlaceholderPage({ heading }: { heading: string }) {
  const t = useShellT();
  return (
    <section className="page">
      <PageMeta title={heading} />
      <h1 className="page__heading">{heading}</h1>
      <p>{t.common.comingSoon}</p>
    </section>
  );
}
