import { describe, expect, it } from 'vitest';
import type { PurchasableLicence } from '../../api/models';
import {
  baseDiscount,
  deviceCountsOf,
  findLicence,
  isSubscriptionLife,
  livesOf,
  periodKind,
  planOf,
  productsOf,
  resolveSelection,
  selectionOfLicence,
} from './catalogue';

function licence(id: number, productCode: string, life: number, maxDevicesCount: number, krw: number): PurchasableLicence {
  const discounted = life === 365;
  return {
    id,
    productCode,
    life,
    maxDevicesCount,
    prices: [
      { countryCode: 'KR', currency: 'KRW', price: krw, requestPrice: discounted ? Math.floor(krw * 0.7) : krw },
      { countryCode: 'US', currency: 'USD', price: 299, requestPrice: 299 },
    ],
    localizations: [
      { langCode: 'ko', name: `${productCode} ${life}일 (${maxDevicesCount}대)`, description: '설명' },
      { langCode: 'en', name: `${productCode} ${life} days`, description: 'about' },
    ],
    discountFactors: discounted ? [{ type: 'base', factor: '0.3' }] : [],
  };
}

const catalogue = [
  licence(211, 'uncpw', 30, 1, 2900),
  licence(111, 'uncpa', 30, 1, 2900),
  licence(113, 'uncpa', 30, 3, 4900),
  licence(121, 'uncpa', 365, 1, 34800),
  licence(123, 'uncpa', 365, 3, 58800),
  licence(131, 'uncpa', 36500, 1, 59000),
  licence(999, 'uncea', 365, 1, 1000),
];

describe('choices', () => {
  it('lists Pro products in the page order, leaving out other products', () => {
    expect(productsOf(catalogue)).toEqual(['uncpa', 'uncpw']);
  });

  it('lists periods and device counts of a product in ascending order', () => {
    expect(livesOf(catalogue, 'uncpa')).toEqual([30, 365, 36500]);
    expect(deviceCountsOf(catalogue, 'uncpa', 30)).toEqual([1, 3]);
    expect(deviceCountsOf(catalogue, 'uncpa', 36500)).toEqual([1]);
  });

  it('finds the licence of a selection', () => {
    expect(findLicence(catalogue, { productCode: 'uncpa', life: 365, maxDevicesCount: 3 })?.id).toBe(123);
    expect(findLicence(catalogue, { productCode: 'uncpa', life: 36500, maxDevicesCount: 3 })).toBeUndefined();
  });
});

describe('resolveSelection', () => {
  it('selects the first product, the annual period and one device by default', () => {
    expect(resolveSelection(catalogue)).toEqual({ productCode: 'uncpa', life: 365, maxDevicesCount: 1 });
  });

  it('keeps a selection that exists', () => {
    expect(resolveSelection(catalogue, { productCode: 'uncpa', life: 30, maxDevicesCount: 3 })).toEqual({
      productCode: 'uncpa',
      life: 30,
      maxDevicesCount: 3,
    });
  });

  it('falls back to the nearest existing choice', () => {
    // Lifetime has only one device; Windows has only the monthly period here.
    expect(resolveSelection(catalogue, { productCode: 'uncpa', life: 36500, maxDevicesCount: 3 })).toEqual({
      productCode: 'uncpa',
      life: 36500,
      maxDevicesCount: 1,
    });
    expect(resolveSelection(catalogue, { productCode: 'uncpw', life: 365, maxDevicesCount: 3 })).toEqual({
      productCode: 'uncpw',
      life: 30,
      maxDevicesCount: 1,
    });
  });

  it('is undefined without any Pro licence', () => {
    expect(resolveSelection([licence(1, 'uncea', 30, 1, 100)])).toBeUndefined();
  });

  it('gives back the selection of a licence id', () => {
    expect(selectionOfLicence(catalogue, 113)).toEqual({ productCode: 'uncpa', life: 30, maxDevicesCount: 3 });
    expect(selectionOfLicence(catalogue, 5)).toBeUndefined();
  });
});

describe('planOf', () => {
  it('takes the price of the country and the name of the language', () => {
    const plan = planOf(catalogue[3]!, 'ko', 'KR');
    expect(plan?.price).toMatchObject({ currency: 'KRW', price: 34800, requestPrice: 24360 });
    expect(plan?.name).toBe('uncpa 365일 (1대)');
    expect(plan?.discount).toBe(0.3);
  });

  it('falls back to US prices and English names', () => {
    const plan = planOf(catalogue[3]!, 'ja', 'JP');
    expect(plan?.price.currency).toBe('USD');
    expect(plan?.name).toBe('uncpa 365 days');
  });

  it('is undefined without any price', () => {
    expect(planOf({ ...catalogue[0]!, prices: [] }, 'ko', 'KR')).toBeUndefined();
  });
});

describe('periods and discounts', () => {
  it('names periods', () => {
    expect([30, 365, 36500, 90].map(periodKind)).toEqual(['monthly', 'annual', 'lifetime', 'days']);
    expect(isSubscriptionLife(30)).toBe(true);
    expect(isSubscriptionLife(36500)).toBe(false);
  });

  it('reads the base discount from its decimal text', () => {
    expect(baseDiscount(catalogue[3]!)).toBe(0.3);
    expect(baseDiscount({ ...catalogue[3]!, discountFactors: [{ type: 'base', factor: '0.15' }] })).toBe(0.15);
    expect(baseDiscount(catalogue[0]!)).toBe(0);
    expect(baseDiscount({ ...catalogue[0]!, discountFactors: [{ type: 'base', factor: 'x' }] })).toBe(0);
  });
});
