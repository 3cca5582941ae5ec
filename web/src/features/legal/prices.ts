/**
 * The catalogue as the Japanese disclosure page states it (pure, tested in prices.test.ts): each licence on sale with
 * its price for Japan, tax included, and for a subscription how often it renews and at what price (a subscription
 * renews at its own price: the one listed, never a first order's coupon).
 */
import type { PurchasableLicence } from '../../api/models';
import { formatPrice } from '../../display/currency';
import { periodKind } from '../../display/duration';
import { pickByCountry, pickLocalization } from '../../display/localization';

export interface JapanesePrice {
  id: number;
  /** The plan's name in Japanese, with its period and devices. */
  name: string;
  /** Tax-included price, as ¥9,800(税込). */
  price: string;
  /** How a subscription renews (毎月 / 毎年 and the price), undefined for a one-off purchase. */
  renewal: string | undefined;
}

const PERIODS = { monthly: '月額', annual: '年額', lifetime: '買い切り' } as const;
const CYCLES = { monthly: '毎月', annual: '毎年' } as const;

/** Each licence with a price for Japan, in the order given. */
export function japanesePrices(licences: readonly PurchasableLicence[]): JapanesePrice[] {
  return licences.flatMap((licence) => {
    const price = pickByCountry(licence.prices, 'JP');
    if (!price) return [];
    const kind = periodKind(licence.life);
    const period = kind === 'days' ? `${licence.life}日` : PERIODS[kind];
    const name = pickLocalization(licence.localizations, 'ja')?.name ?? licence.productCode;
    const text = `${formatPrice(price.requestPrice, price.currency, 'ja')}(税込)`;
    const cycle = kind === 'monthly' || kind === 'annual' ? CYCLES[kind] : kind === 'days' ? `${licence.life}日ごと` : undefined;
    return [
      {
        id: licence.id,
        name: `${name}(${period}・${licence.maxDevicesCount}台)`,
        price: text,
        renewal: cycle && `${cycle}${text}で自動更新`,
      },
    ];
  });
}
