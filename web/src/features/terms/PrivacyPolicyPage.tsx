import { useT } from '../../i18n/useT';
import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** Placeholder until the feature is built. */
export default function PrivacyPolicyPage() {
  const t = useT();
  return <PlaceholderPage heading={t.terms.privacyHeading} />;
}
