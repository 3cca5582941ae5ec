import { lazy, Suspense, useEffect, useState } from 'react';
import { useT } from '../../i18n/useT';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import '../../ui/kit.css';

/** State a link to the purchase page may carry: the licence to preselect (after a failed payment). */
export interface PurchaseLocationState {
  licenseId?: number;
}

const PurchaseOrder = lazy(() => import('./PurchaseOrder'));

/**
 * False until the browser has painted once after mounting. The order's code (react-hook-form, zod, the checkout
 * flows: some twenty chunks) is asked for only then, so the heading and lead, the page's largest paint, never wait
 * behind its download and parsing.
 */
function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A timeout set inside an animation frame runs after that frame's paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

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
