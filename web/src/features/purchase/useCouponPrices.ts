/** The licences on sale priced with a coupon code (the server's quotes), or null without a code or on failure. */
import { useEffect, useState } from 'react';
import type { PurchasableLicence } from '../../api/models';
import { getPurchasableLicences } from './api';

export function useCouponPrices(code: string | undefined): PurchasableLicence[] | null {
  const [priced, setPriced] = useState<{ code: string; licences: PurchasableLicence[] } | null>(null);
  useEffect(() => {
    if (!code) return undefined;
    let live = true;
    getPurchasableLicences({ code })
      .then((licences) => {
        if (live) setPriced({ code, licences });
      })
      .catch(() => {
        if (live) setPriced(null);
      });
    return () => {
      live = false;
    };
  }, [code]);
  return code && priced?.code === code ? priced.licences : null;
}
