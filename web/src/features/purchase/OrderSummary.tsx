/** The order's side panel: the plan, its period and price; the buyer's part and the pay button come as children. */
import type { ReactNode } from 'react';
import { formatPrice } from '../../display/currency';
import { discountPercent, discountText } from '../../display/discount';
import { durationDisplay, durationText } from '../../display/duration';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import type { Plan } from './catalogue';

export function OrderSummary({ plan, life, children }: { plan: Plan; life: number; children: ReactNode }) {
  const t = useT();
  const lang = useLang();
  const percent = discountPercent(plan.discount);
  return (
    <aside className="purchase__summary card" aria-labelledby="purchase-summary-heading">
      <h2 id="purchase-summary-heading" className="content-section__heading">
        {t.purchase.summaryHeading}
      </h2>
      <p className="purchase__plan-name">{plan.name}</p>
      {plan.description && <p className="hint">{plan.description}</p>}
      <dl className="facts">
        <dt>{t.purchase.period}</dt>
        <dd>{durationText(durationDisplay(life, new Date()), t.purchase.lifetime)}</dd>
        {plan.price.price !== plan.price.requestPrice && (
          <>
            <dt>{t.purchase.listPrice}</dt>
            <dd>
              <s>{formatPrice(plan.price.price, plan.price.currency, lang)}</s>
              {percent > 0 && plan.coupon === 0 && <> ({format(t.purchase.discount, { percent })})</>}
              {plan.coupon > 0 && (
                <>
                  {' '}
                  ({discountText({ base: plan.discount, coupon: plan.coupon, currency: plan.price.currency }, lang)}{' '}
                  {t.coupon.discountLabel})
                </>
              )}
            </dd>
          </>
        )}
        <dt>{t.purchase.total}</dt>
        <dd className="purchase__total">{formatPrice(plan.price.requestPrice, plan.price.currency, lang)}</dd>
      </dl>
      {children}
    </aside>
  );
}
