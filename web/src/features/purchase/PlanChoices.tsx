/** Product, period and device count of the purchase page, each option with its price in the visitor's currency. */
import type { PurchasableLicence } from '../../api/models';
import { formatPrice } from '../../display/currency';
import { discountPercent } from '../../display/discount';
import { format } from '../../i18n/catalogues';
import { useCount } from '../../i18n/useCount';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import {
  deviceCountsOf,
  findLicence,
  livesOf,
  periodKind,
  planOf,
  productsOf,
  type Selection,
} from './catalogue';

export function PlanChoices({
  licences,
  selection,
  country,
  onChange,
}: {
  licences: readonly PurchasableLicence[];
  selection: Selection;
  /** The visitor's country as the server decided it. */
  country: string;
  onChange: (wanted: Selection) => void;
}) {
  const t = useT();
  const count = useCount();
  const lang = useLang();
  const priceOf = (wanted: Selection) => {
    const licence = findLicence(licences, wanted);
    const plan = licence && planOf(licence, lang, country);
    return plan ? { text: formatPrice(plan.price.requestPrice, plan.price.currency, lang), discount: plan.discount } : undefined;
  };
  const periodName = (life: number) => {
    const kind = periodKind(life);
    return kind === 'days' ? count(t.purchase.periods.days, life) : t.purchase.periods[kind];
  };

  return (
    <>
      <fieldset className="content-section">
        <legend>{t.purchase.productHeading}</legend>
        <div className="purchase__options purchase__options--products">
          {productsOf(licences).map((code) => (
            <label key={code} className="purchase-option">
              <input
                type="radio"
                name="product"
                value={code}
                checked={selection.productCode === code}
                onChange={() => onChange({ ...selection, productCode: code })}
              />
              <span className="purchase-option__name">{t.purchase.products[code]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="content-section">
        <legend>{t.purchase.periodHeading}</legend>
        <div className="purchase__options">
          {livesOf(licences, selection.productCode).map((life) => {
            const counts = deviceCountsOf(licences, selection.productCode, life);
            const devices = counts.includes(selection.maxDevicesCount) ? selection.maxDevicesCount : counts[0];
            const price =
              devices === undefined ? undefined : priceOf({ productCode: selection.productCode, life, maxDevicesCount: devices });
            const percent = discountPercent(price?.discount);
            return (
              <label key={life} className="purchase-option">
                <input
                  type="radio"
                  name="life"
                  value={life}
                  checked={selection.life === life}
                  onChange={() => onChange({ ...selection, life })}
                />
                <span className="purchase-option__name">{periodName(life)}</span>
                <span className="purchase-option__price">{price?.text}</span>
                {percent > 0 && <span className="purchase-option__badge">{format(t.purchase.discount, { percent })}</span>}
              </label>
            );
          })}
        </div>
      </fieldset>

      <fieldset className="content-section">
        <legend>{t.purchase.devicesHeading}</legend>
        <div className="purchase__options">
          {deviceCountsOf(licences, selection.productCode, selection.life).map((devices) => (
            <label key={devices} className="purchase-option">
              <input
                type="radio"
                name="maxDevicesCount"
                value={devices}
                checked={selection.maxDevicesCount === devices}
                onChange={() => onChange({ ...selection, maxDevicesCount: devices })}
              />
              <span className="purchase-option__name">{count(t.purchase.devices, devices)}</span>
              <span className="purchase-option__price">{priceOf({ ...selection, maxDevicesCount: devices })?.text}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
