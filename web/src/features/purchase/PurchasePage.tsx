import { lazy, Suspense } from 'react';
import { useT } from '../../i18n/useT';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import '../../ui/kit.css';

/** State a link to the purchase page may carry: the licence to preselect (after a failed payment). */
export interface PurchaseLocationState {
  licenseId?: number;
}

// The order and its validation (react-hook-form, zod) are fetched as soon as this module runs, but the heading and
// lead (the page's largest paint) need none of it, so they are drawn without waiting.
const loadOrder = () => import('./PurchaseOrder');
const PurchaseOrder = lazy(loadOrder);
void loadOrder();

/**
 * Purchase page (spec section 2): the heading and lead at once, then the order (`PurchaseOrder`) under them, its
 * loading view in the place the order takes.
 */
export default function PurchasePage() {
  const t = useT();
  return (
    <section className="content-page">
      <PageMeta title={t.purchase.heading} />
      <h1 className="page__heading">{t.purchase.heading}</h1>
      <p className="content-page__lead">
        {t.purchase.lead} <strong>{t.purchase.guarantee}</strong>
      </p>
      <Suspense fallback={<PageLoading />}>
        <PurchaseOrder />
      </Suspense>
    </section>
  );
}
