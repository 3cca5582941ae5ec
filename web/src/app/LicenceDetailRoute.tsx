import LicenceDetailPage from '../features/licences/LicenceDetailPage';
import { SubscriptionSection } from '../features/subscriptions/SubscriptionSection';

/** /{lang}/license/{userLicenseId}: the licence detail page with its subscription section. */
export default function LicenceDetailRoute() {
  return (
    <LicenceDetailPage
      subscription={(userLicenseId, onChanged) => (
        <SubscriptionSection userLicenseId={userLicenseId} onChanged={onChanged} />
      )}
    />
  );
}
