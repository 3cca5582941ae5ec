import { lazy, Suspense } from 'react';
import { useT } from '../../i18n/useT';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { usePaintedOnce } from '../../ui/usePaintedOnce';
import '../../ui/kit.css';

/** State a link to the purchase page may carry: the licence to preselect (after a failed payment). */
export interface PurchaseLocationState {
  licenseId?: number;
}

// The order's code (react-hook-form, zod, the checkout flows: some twenty chunks) is asked for once the heading and
// lead, the page's largest paint, are on screen.
const PurchaseOrder = lazy(() => import('./PurchaseOrder'));

/**
 * Purchase page (spec section 2): the heading and lead at once, then the order (`PurchaseOrder`) under them, its
 * loading view in the place the order takes.
 */
export default function PurchasePage() {
  const t = useT();
  const painted = usePaintedOnce();
  return (
    <section className="content-page">
      <PageMeta title={t.purchase.heading} />
      <h1 className="page__heading">{t.purchase.heading}</h1>
      <p className="content-page__lead">
        {t.purchase.lead} <strong>{t.purchase.guarantee}</strong>
      </p>
      <Suspense fallback={<PageLoading />}>{painted ? <PurchaseOrder /> : <PageLoading />}</Suspense>
    </section>
  );
}
