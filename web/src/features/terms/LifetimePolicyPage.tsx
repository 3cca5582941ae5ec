import { useT } from '../../i18n/useT';
import { PolicyPage } from './PolicyPage';

/** /{lang}/terms/lifetime */
export default function LifetimePolicyPage() {
  const t = useT();
  return <PolicyPage name="lifetime" heading={t.terms.lifetimeHeading} />;
}
