/**
 * Prices as the storefront shows them (spec section 3, "Currency display", and section 9):
 * - KRW: amount + '원' in Korean, amount + ' KRW' in other languages;
 * - USD: '$' + amount, from integer cents, with two decimals;
 * - JPY: '¥' + amount;
 * - any other currency: its code, a space, the amount.
 * Thousands are separated by commas. Negative amounts keep their sign in front of the symbol.
 */
import type { Lang } from '../i18n/languages';
import { groupThousands } from './numbers';

/** `amount` is in the currency's smallest unit the server uses: won, yen, US cents. */
export function formatPrice(amount: number, currency: string, lang: Lang): string {
  const code = currency.trim().toUpperCase();
  const sign = amount < 0 ? '-' : '';
  const magnitude = Math.abs(amount);
  switch (code) {
    case 'KRW': {
      const text = groupThousands(Math.round(magnitude));
      return lang === 'ko' ? `${sign}${text}원` : `${sign}${text} KRW`;
    }
    case 'USD': {
      const cents = Math.round(magnitude);
      const dollars = Math.floor(cents / 100);
      const rest = String(cents % 100).padStart(2, '0');
      return `${sign}$${groupThousands(dollars)}.${rest}`;
    }
    case 'JPY':
      return `${sign}¥${groupThousands(Math.round(magnitude))}`;
    default:
      return `${sign}${code} ${groupThousands(magnitude)}`;
  }
}
