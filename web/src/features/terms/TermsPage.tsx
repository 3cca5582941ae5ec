import { useT } from '../../i18n/useT';
import { PageMeta } from '../../ui/PageMeta';
import { PolicyLinks } from './PolicyPage';
import './PolicyPage.css';

/** /{lang}/terms/service: the terms of use are not written yet; the page leads to the policies. */
export default function TermsPage() {
  const t = useT();
  return (
    <section className="page policy">
      <PageMeta title={t.terms.termsHeading} />
      <h1 className="page__heading">{t.terms.termsHeading}</h1>
      <p>{t.common.comingSoon}</p>
      <PolicyLinks />
    </section>
  );
}
