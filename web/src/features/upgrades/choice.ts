/**
 * The upgrade page's choices (spec sections 2 and 9): a life and a device count among the upgradable
 * options, the plan they name, and how its price reads. The server decides which plans exist and what
 * each costs; this only picks among them and formats what it said.
 */
import type { UpgradeOptions, UpgradePlan } from '../../api/models';
import { discountText, remainingDiscount } from '../../display/discount';
import type { Lang } from '../../i18n/languages';

export interface UpgradeSelection {
  life: number;
  maxDevicesCount: number;
}

/** Device counts offered with a life (the plans of that life), smallest first. */
export function devicesForLife(options: UpgradeOptions, life: number): number[] {
  return [...new Set(options.licenses.filter((plan) => plan.life === life).map((plan) => plan.maxDevicesCount))].sort(
    (a, b) => a - b,
  );
}

/**
 * The selection to show: the wanted life if offered, else the default life (365) if offered, else the
 * shortest; the wanted device count if that life has it, else its smallest.
 */
export function resolveUpgradeSelection(options: UpgradeOptions, wanted: Partial<UpgradeSelection>): UpgradeSelection | null {
  const lives = options.upgradableOptions.life.filter((life) => devicesForLife(options, life).length > 0);
  if (lives.length === 0) return null;
  const life =
    wanted.life !== undefined && lives.includes(wanted.life)
      ? wanted.life
      : lives.includes(options.defaultLife)
        ? options.defaultLife
        : lives[0]!;
  const devices = devicesForLife(options, life);
  const maxDevicesCount =
    wanted.maxDevicesCount !== undefined && devices.includes(wanted.maxDevicesCount) ? wanted.maxDevicesCount : devices[0]!;
  return { life, maxDevicesCount };
}

/** The plan a selection names. */
export function planFor(options: UpgradeOptions, selection: UpgradeSelection): UpgradePlan | undefined {
  return options.licenses.find(
    (plan) => plan.life === selection.life && plan.maxDevicesCount === selection.maxDevicesCount,
  );
}

export interface UpgradePriceLines {
  /** The list price. */
  price: number;
  /** After the base discount. */
  discountedPrice: number;
  /** discountedPrice - remainingPrice: the credit for the unused value, shown when non-zero. */
  remaining: number;
  /** What the upgrade charges. */
  total: number;
  /** '30% + 1,450원': the non-zero discounts joined with ' + ' (base, remaining, coupon). */
  discountText: string;
  currency: string;
}

/** How a plan's price reads on the page. */
export function priceLines(plan: UpgradePlan, lang: Lang): UpgradePriceLines {
  const remaining = remainingDiscount(plan.discountedPrice, plan.remainingPrice);
  return {
    price: plan.price,
    discountedPrice: plan.discountedPrice,
    remaining,
    total: plan.requestPrice,
    discountText: discountText(
      { base: Number(plan.discount), remaining, coupon: Number(plan.coupon), currency: plan.currency },
      lang,
    ),
    currency: plan.currency,
  };
}

/** How the page pays: a payment window for a purchased licence, a billing key for a subscription. */
export type UpgradePayment = 'window' | 'currentCard' | 'keyWindow';

/** The payment ways the page offers for an upgrade method (the server's `upgradeMethod`). */
export function paymentWays(upgradeMethod: string): UpgradePayment[] {
  return upgradeMethod === 'subscribe' ? ['currentCard', 'keyWindow'] : ['window'];
}
