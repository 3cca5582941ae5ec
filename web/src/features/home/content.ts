/**
 * What the home page lists, apart from its words (those are in the catalogues under `home`).
 * Product codes and editions: spec section 1.
 */
export type ProductCode = 'uncea' | 'uncei' | 'uncem' | 'uncpa' | 'uncpw' | 'uncpi' | 'uncpm';
export type Platform = 'android' | 'ios' | 'mac' | 'windows';

export interface Product {
  code: ProductCode;
  platform: Platform;
  pro: boolean;
}

export const PRODUCTS: readonly Product[] = [
  { code: 'uncea', platform: 'android', pro: false },
  { code: 'uncei', platform: 'ios', pro: false },
  { code: 'uncem', platform: 'mac', pro: false },
  { code: 'uncpa', platform: 'android', pro: true },
  { code: 'uncpw', platform: 'windows', pro: true },
  { code: 'uncpi', platform: 'ios', pro: true },
  { code: 'uncpm', platform: 'mac', pro: true },
];

export const EDITIONS = ['basic', 'https', 'extension', 'pro'] as const;
export type Edition = (typeof EDITIONS)[number];

export type Store = 'googlePlay' | 'appStore' | 'macAppStore';

export interface Review {
  /** Key prefix of the review's title and text in `home.reviews`: r1Title, r1Text. */
  id: 'r1' | 'r2' | 'r3' | 'r4' | 'r5' | 'r6';
  store: Store;
  stars: number;
}

/** The six store-review testimonials (spec section 1), all with five stars. */
export const REVIEWS: readonly Review[] = [
  { id: 'r1', store: 'googlePlay', stars: 5 },
  { id: 'r2', store: 'googlePlay', stars: 5 },
  { id: 'r3', store: 'appStore', stars: 5 },
  { id: 'r4', store: 'appStore', stars: 5 },
  { id: 'r5', store: 'macAppStore', stars: 5 },
  { id: 'r6', store: 'googlePlay', stars: 5 },
];

export const MAX_STARS = 5;

export interface FaqItem {
  question: string;
  answer: string;
}

/** The FAQ list exists but is empty for now (spec section 1): the page shows its empty state. */
export const FAQ_ITEMS: Readonly<Record<'ko' | 'en' | 'ja', readonly FaqItem[]>> = { ko: [], en: [], ja: [] };
