import { useT } from '../../i18n/useT';
import { PolicyPage } from './PolicyPage';

/** /{lang}/terms/service: the terms of use, agreed to at purchase and registration. */
export default function TermsPage() {
  const t = useT();
  return <PolicyPage name="terms" heading={t.terms.termsHeading} />;
}
