import { describe, expect, it } from 'vitest';
import type { UpgradeOptions, UpgradePlan } from '../../api/models';
import { devicesForLife, payChoiceKey, payChoices, paymentWays, planFor, priceLines, resolveUpgradeSelection } from './choice';

function plan(id: number, life: number, maxDevicesCount: number, over: Partial<UpgradePlan> = {}): UpgradePlan {
  return {
    id,
    name: `plan ${id}`,
    category: 'uncpa',
    life,
    maxDevicesCount,
    currency: 'KRW',
    price: 58800,
    discountedPrice: 41160,
    remainingPrice: 39710,
    requestPrice: 39710,
    remainingCredit: 1450,
    discount: '0.3',
    remaining: '0.0352',
    coupon: '0',
    ...over,
  };
}

// A monthly 1-device licence halfway through its month.
const monthly: UpgradeOptions = {
  userLicenseId: '7f0c2c4e-0000-4000-8000-000000000001',
  currentLicenseId: 111,
  upgradeMethod: 'upgrade',
  defaultLife: 365,
  upgradableOptions: { life: [30, 365, 36500], maxDevicesCount: [1, 3] },
  paymentMethods: ['creditCard', 'bankTransfer', 'kakaopay', 'naverpay', 'point'],
  licenses: [
    plan(113, 30, 3, { price: 4900, discountedPrice: 4900, remainingPrice: 3450, requestPrice: 3450, discount: '0' }),
    plan(121, 365, 1, { price: 34800, discountedPrice: 24360, remainingPrice: 22910, requestPrice: 22910 }),
    plan(123, 365, 3),
    plan(131, 36500, 1, { price: 59000, discountedPrice: 59000, remainingPrice: 57550, requestPrice: 57550, discount: '0' }),
    plan(133, 36500, 3, { price: 89000, discountedPrice: 89000, remainingPrice: 87550, requestPrice: 87550, discount: '0' }),
  ],
};

describe('choosing an upgrade', () => {
  it('starts on the annual life with its fewest devices', () => {
    expect(resolveUpgradeSelection(monthly, {})).toEqual({ life: 365, maxDevicesCount: 1 });
  });

  it('keeps a wanted device count the chosen life offers, else falls back to its smallest', () => {
    expect(resolveUpgradeSelection(monthly, { life: 365, maxDevicesCount: 3 })).toEqual({ life: 365, maxDevicesCount: 3 });
    expect(resolveUpgradeSelection(monthly, { life: 30, maxDevicesCount: 1 })).toEqual({ life: 30, maxDevicesCount: 3 });
  });

  it('offers only the device counts a life has plans for', () => {
    expect(devicesForLife(monthly, 30)).toEqual([3]);
    expect(devicesForLife(monthly, 36500)).toEqual([1, 3]);
  });

  it('falls back to the shortest life when the default one is not offered', () => {
    const lifetimeOnly = { ...monthly, upgradableOptions: { life: [36500], maxDevicesCount: [3] }, licenses: [plan(133, 36500, 3)] };
    expect(resolveUpgradeSelection(lifetimeOnly, { life: 365 })).toEqual({ life: 36500, maxDevicesCount: 3 });
  });

  it('has nothing to choose when no plan is offered', () => {
    expect(resolveUpgradeSelection({ ...monthly, upgradableOptions: { life: [], maxDevicesCount: [] }, licenses: [] }, {})).toBeNull();
  });

  it('names the plan of the selection', () => {
    expect(planFor(monthly, { life: 365, maxDevicesCount: 3 })?.id).toBe(123);
    expect(planFor(monthly, { life: 30, maxDevicesCount: 1 })).toBeUndefined();
  });
});

describe('how an upgrade price reads', () => {
  it('shows the base discount and, apart and once, the remaining credit, and the total', () => {
    const lines = priceLines(plan(123, 365, 3), 'ko');
    expect(lines.remaining).toBe(1450);
    expect(lines.total).toBe(39710);
    expect(lines.discountText).toBe('30%');
  });

  it('joins a coupon to the base discount, never the credit', () => {
    expect(priceLines(plan(123, 365, 3, { coupon: '0.1' }), 'ko').discountText).toBe('30% + 10%');
  });

  it('leaves out a remaining discount of zero', () => {
    const lines = priceLines(plan(123, 365, 3, { remainingPrice: 41160, requestPrice: 41160, remainingCredit: 0 }), 'en');
    expect(lines.remaining).toBe(0);
    expect(lines.discountText).toBe('30%');
  });

  it('has no discount line on a plan without a base discount, only the credit', () => {
    const lines = priceLines(monthly.licenses[3]!, 'ko');
    expect(lines.discountText).toBe('');
    expect(lines.remaining).toBe(1450);
  });
});

describe('how an upgrade is paid', () => {
  it('uses a payment window for a purchased licence and a billing key for a subscription', () => {
    expect(paymentWays('upgrade')).toEqual(['window']);
    expect(paymentWays('subscribe')).toEqual(['currentCard', 'keyWindow']);
  });

  it('offers one choice per way to pay, each with a key of its own, for one pay button', () => {
    const windowChoices = payChoices('upgrade', ['creditCard', 'kakaopay']);
    expect(windowChoices.map(payChoiceKey)).toEqual(['window:creditCard', 'window:kakaopay']);
    const subscription = payChoices('subscribe', ['creditCard']).map(payChoiceKey);
    expect(subscription).toEqual(['currentCard', 'typedCard', 'keyWindow:creditCard', 'keyWindow:kakaopay', 'keyWindow:naverpay']);
    expect(new Set(subscription).size).toBe(subscription.length);
  });
});
