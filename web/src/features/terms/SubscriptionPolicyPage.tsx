import { useT } from '../../i18n/useT';
import { PolicyPage } from './PolicyPage';

/** /{lang}/terms/subscription */
export default function SubscriptionPolicyPage() {
  const t = useT();
  return <PolicyPage name="subscription" heading={t.terms.subscriptionHeading} />;
}
