/**
 * The upgrade page's choices (spec sections 2 and 9): a life and a device count among the upgradable
 * options, the plan they name, and how its price reads. The server decides which plans exist and what
 * each costs; this only picks among them and formats what it said.
 */
import type { UpgradeOptions, UpgradePlan } from '../../api/models';
import { discountText, remainingDiscount } from '../../display/discount';
import type { Lang } from '../../i18n/languages';
import { KEY_REQUEST_TYPES, type KeyRequestType, type PaymentMethod } from '../../billing/paymentMethods';

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
  /** '30% + 10%': the non-zero percent discounts (base, coupon); the credit is `remaining`, shown on its own line
   * (issue 29, finding 10: the quote showed it twice, as '30% + 2,899원' and again as '-2,899원'). */
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
      { base: Number(plan.discount), coupon: Number(plan.coupon), currency: plan.currency },
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

/**
 * One choice of the page's single "how to pay" group, and so of its single pay button: a window method for a
 * purchased licence; for a subscription its current card, a card typed on the page, or a billing-key window.
 */
export type PayChoice =
  | { kind: 'window'; method: PaymentMethod }
  | { kind: 'currentCard' }
  | { kind: 'typedCard' }
  | { kind: 'keyWindow'; requestType: KeyRequestType };

/** The choices, in the order the page lists them; the first is chosen until the customer picks another. */
export function payChoices(upgradeMethod: string, windowMethods: readonly PaymentMethod[]): PayChoice[] {
  if (upgradeMethod !== 'subscribe') return windowMethods.map((method) => ({ kind: 'window', method }));
  return [
    { kind: 'currentCard' },
    { kind: 'typedCard' },
    ...KEY_REQUEST_TYPES.map((requestType) => ({ kind: 'keyWindow' as const, requestType })),
  ];
}

/** A choice's radio value (unique within the group). */
export function payChoiceKey(choice: PayChoice): string {
  if (choice.kind === 'window') return `window:${choice.method}`;
  if (choice.kind === 'keyWindow') return `keyWindow:${choice.requestType}`;
  return choice.kind;
}
