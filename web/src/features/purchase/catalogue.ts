/**
 * Choosing a licence on the purchase page: Pro products, periods and device counts out of the
 * licences on sale, and the price and name for the visitor's country and language (spec sections 3
 * and 9). Pure functions, tested in catalogue.test.ts.
 */
import type { Lang } from '../../i18n/languages';
import { pickByCountry, pickLocalization } from '../../display/localization';
import type { LicencePrice, PurchasableLicence } from '../../api/models';
import { LIFETIME_DAYS, YEAR_DAYS } from '../../api/rules';

/** Pro products in the order the page lists them. */
export const PRO_PRODUCTS = ['uncpa', 'uncpw', 'uncpi', 'uncpm'] as const;
export type ProProduct = (typeof PRO_PRODUCTS)[number];

/** Spec section 9: the period selected by default. */
export const DEFAULT_LIFE = YEAR_DAYS;

export interface Selection {
  productCode: string;
  life: number;
  maxDevicesCount: number;
}

/** A licence as the page shows it in one country and language. */
export interface Plan {
  licence: PurchasableLicence;
  price: LicencePrice;
  name: string;
  description: string;
  /** The licence's base discount as a fraction (0.3), 0 when none. */
  discount: number;
  /** The applied coupon's discount on this licence as a fraction, 0 when none applies. */
  coupon: number;
}

/** The base discount factor of a licence, as a number (the server sends a decimal text, "0.3"). */
export function baseDiscount(licence: PurchasableLicence): number {
  return discountOf(licence, 'base');
}

/** One kind of discount factor of a licence (base, remaining or coupon), as a number; 0 when absent. */
export function discountOf(licence: PurchasableLicence, type: 'base' | 'remaining' | 'coupon'): number {
  const factor = licence.discountFactors?.find((item) => item.type === type)?.factor;
  const value = Number(factor ?? 0);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** Price and name of a licence for the country and language; undefined when it has no price. */
export function planOf(licence: PurchasableLicence, lang: Lang, country: string): Plan | undefined {
  const price = pickByCountry(licence.prices, country);
  if (!price) return undefined;
  const localization = pickLocalization(licence.localizations, lang);
  return {
    licence,
    price,
    name: localization?.name ?? licence.productCode,
    description: localization?.description ?? '',
    discount: baseDiscount(licence),
    coupon: discountOf(licence, 'coupon'),
  };
}

const unique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/** Pro products that have at least one licence on sale, in the page's order. */
export function productsOf(licences: readonly PurchasableLicence[]): ProProduct[] {
  return PRO_PRODUCTS.filter((code) => licences.some((licence) => licence.productCode === code));
}

export function livesOf(licences: readonly PurchasableLicence[], productCode: string): number[] {
  return unique(licences.filter((l) => l.productCode === productCode).map((l) => l.life));
}

export function deviceCountsOf(licences: readonly PurchasableLicence[], productCode: string, life: number): number[] {
  return unique(licences.filter((l) => l.productCode === productCode && l.life === life).map((l) => l.maxDevicesCount));
}

export function findLicence(licences: readonly PurchasableLicence[], selection: Selection): PurchasableLicence | undefined {
  return licences.find(
    (l) =>
      l.productCode === selection.productCode &&
      l.life === selection.life &&
      l.maxDevicesCount === selection.maxDevicesCount,
  );
}

/**
 * A selection that exists among the licences: the wanted one when it does, otherwise the nearest
 * (same product, then the default period, then the fewest devices). Undefined without any Pro licence.
 */
export function resolveSelection(
  licences: readonly PurchasableLicence[],
  wanted: Partial<Selection> = {},
): Selection | undefined {
  const products = productsOf(licences);
  const productCode = products.find((code) => code === wanted.productCode) ?? products[0];
  if (productCode === undefined) return undefined;
  const lives = livesOf(licences, productCode);
  const life =
    lives.find((value) => value === wanted.life) ?? lives.find((value) => value === DEFAULT_LIFE) ?? lives[0];
  if (life === undefined) return undefined;
  const counts = deviceCountsOf(licences, productCode, life);
  const maxDevicesCount = counts.find((value) => value === wanted.maxDevicesCount) ?? counts[0];
  if (maxDevicesCount === undefined) return undefined;
  return { productCode, life, maxDevicesCount };
}

/** The selection of a licence id (to come back to the licence of a failed payment). */
export function selectionOfLicence(licences: readonly PurchasableLicence[], licenseId: number): Selection | undefined {
  const licence = licences.find((l) => l.id === licenseId);
  return licence && { productCode: licence.productCode, life: licence.life, maxDevicesCount: licence.maxDevicesCount };
}

export { periodKind, type PeriodKind } from '../../display/duration';

/** Whether a period renews (monthly or annual subscription) rather than being bought once. */
export function isSubscriptionLife(life: number): boolean {
  return life !== LIFETIME_DAYS;
}
