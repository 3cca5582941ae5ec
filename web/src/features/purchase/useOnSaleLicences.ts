/** The licences on sale, loaded once per visit of the purchase page. */
import { useEffect, useState } from 'react';
import type { PurchasableLicence } from '../../api/models';
import { featureErrorMessage, isNotFoundGoingHome, toFeatureError } from '../../errors/featureError';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import type { AlertContent } from '../../ui/AlertDialog';
import { getPurchasableLicences } from './api';

/**
 * Null while loading; empty after a failure, which shows the alert (and goes home when nothing
 * can be bought: 404 or -109). `onLoaded` sees the licences first (to preselect one).
 */
export function useOnSaleLicences(
  showAlert: (alert: AlertContent) => void,
  onLoaded: (licences: PurchasableLicence[]) => void,
): PurchasableLicence[] | null {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [licences, setLicences] = useState<PurchasableLicence[] | null>(null);

  useEffect(() => {
    let live = true;
    getPurchasableLicences()
      .then((items) => {
        if (!live) return;
        setLicences(items);
        onLoaded(items);
      })
      .catch((error: unknown) => {
        if (!live) return;
        const failure = toFeatureError(error);
        setLicences([]);
        showAlert({
          title: t.payments.errorTitles.purchasable,
          message: featureErrorMessage(t, failure),
          then: isNotFoundGoingHome(failure) ? () => navigate(paths.home()) : undefined,
        });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Loaded once per visit: the language only changes how the licences read.
  }, []);

  return licences;
}
