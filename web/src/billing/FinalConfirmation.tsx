/**
 * The final confirmation (Japan's Act on Specified Commercial Transactions, Article 12-6; docs/legal.md): right
 * before the pay button of the purchase and upgrade pages, in one place, what is bought, its price including tax,
 * when and how it is paid, when it starts, how to cancel or withdraw, and whether it renews, at what price and how
 * often. The pages say what the order is; this block only words it.
 */
import { Link } from 'wouter';
import { formatPrice } from '../display/currency';
import { periodKind } from '../display/duration';
import { format } from '../i18n/catalogues';
import { useLang } from '../routing/useLang';
import { CONFIRMATION_TEXT } from './confirmationText';
import './FinalConfirmation.css';

export interface Amount {
  amount: number;
  currency: string;
}

export interface FinalOrder {
  /** What is bought, as the page names it (plan, period, devices). */
  item: string;
  /** What the pay button charges now. */
  price: Amount;
  /** The payment method's name in the page's language. */
  method: string;
  /** Paid by a deposit into a virtual account (starts when it arrives). */
  byDeposit?: boolean;
  /** Present when the order renews on its own: what each renewal charges and the period's life in days. */
  renewal?: Amount & { life: number };
  /** The purchase policy that applies (subscription or one-off). */
  policyHref: string;
}

export function FinalConfirmation({ order }: { order: FinalOrder }) {
  const lang = useLang();
  const text = CONFIRMATION_TEXT[lang];
  const withTax = (price: Amount) => format(text.taxIncluded, { price: formatPrice(price.amount, price.currency, lang) });
  const renewal = order.renewal;
  const cycle = renewal ? periodKind(renewal.life) : undefined;
  const rows: [key: string, label: string, value: string][] = [
    ['item', text.item, order.item],
    ['price', text.price, withTax(order.price)],
    [
      'payment',
      text.payment,
      order.byDeposit
        ? text.payByDeposit
        : format(renewal ? text.payNowThenEachRenewal : text.payOnce, { method: order.method }),
    ],
    ['starts', text.starts, order.byDeposit ? text.startsOnDeposit : text.startsNow],
    ['cancel', text.cancel, renewal ? text.cancelSubscription : text.cancelPurchase],
    [
      'renewal',
      text.renewal,
      renewal && cycle && cycle !== 'lifetime'
        ? format(text.renews, { cycle: text.cycles[cycle], price: withTax(renewal) })
        : text.noRenewal,
    ],
  ];
  return (
    <section className="final-confirmation" aria-labelledby="final-confirmation-heading" data-testid="final-confirmation">
      <h3 id="final-confirmation-heading" className="final-confirmation__heading">
        {text.heading}
      </h3>
      <dl className="final-confirmation__items">
        {rows.map(([key, label, value]) => (
          <div key={key} data-item={key}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Link to={order.policyHref} className="final-confirmation__policy">
        {text.policy}
      </Link>
    </section>
  );
}
