import { describe, expect, it } from 'vitest';
import { formatPrice } from './currency';
import { groupThousands } from './numbers';

describe('groupThousands', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    ['12345.5', '12,345.5'],
  ])('%s -> %s', (value, expected) => {
    expect(groupThousands(value)).toBe(expected);
  });
});

describe('formatPrice', () => {
  it('shows KRW with 원 in Korean', () => {
    expect(formatPrice(39000, 'KRW', 'ko')).toBe('39,000원');
    expect(formatPrice(1234567, 'KRW', 'ko')).toBe('1,234,567원');
  });

  it('shows KRW with a KRW suffix in English and Japanese', () => {
    expect(formatPrice(39000, 'KRW', 'en')).toBe('39,000 KRW');
    expect(formatPrice(500, 'KRW', 'ja')).toBe('500 KRW');
  });

  it('shows USD from integer cents with a $ prefix and two decimals', () => {
    expect(formatPrice(2999, 'USD', 'en')).toBe('$29.99');
    expect(formatPrice(500, 'USD', 'ko')).toBe('$5.00');
    expect(formatPrice(5, 'USD', 'ja')).toBe('$0.05');
    expect(formatPrice(123456789, 'USD', 'en')).toBe('$1,234,567.89');
  });

  it('shows JPY with a ¥ prefix', () => {
    expect(formatPrice(3800, 'JPY', 'ja')).toBe('¥3,800');
    expect(formatPrice(120, 'JPY', 'ko')).toBe('¥120');
  });

  it('shows other currencies as code and amount', () => {
    expect(formatPrice(12500, 'EUR', 'en')).toBe('EUR 12,500');
    expect(formatPrice(90, 'twd', 'ko')).toBe('TWD 90');
  });

  it('accepts lower-case codes and keeps a negative sign in front', () => {
    expect(formatPrice(1000, 'krw', 'ko')).toBe('1,000원');
    expect(formatPrice(-5000, 'KRW', 'ko')).toBe('-5,000원');
    expect(formatPrice(-150, 'USD', 'en')).toBe('-$1.50');
  });
});
