import { useT } from '../../i18n/useT';
import { PolicyPage } from './PolicyPage';

/** /{lang}/terms/privacy */
export default function PrivacyPolicyPage() {
  const t = useT();
  return <PolicyPage name="privacy" heading={t.terms.privacyHeading} />;
}
