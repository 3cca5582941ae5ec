import LicenseDetailPage from '../features/licences/LicenseDetailPage';
import { SubscriptionSection } from '../features/subscriptions/SubscriptionSection';

/** /{lang}/license/{userLicenseId}: the licence detail page with its subscription section. */
export default function LicenseDetailRoute() {
  return (
    <LicenseDetailPage
      subscription={(userLicenseId, onChanged) => (
        <SubscriptionSection userLicenseId={userLicenseId} onChanged={onChanged} />
      )}
    />
  );
}
