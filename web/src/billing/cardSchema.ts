/**
 * Card entry for a billing key (spec section 5): number without dashes, validity month 01-12 and
 * year among `expiryYears(now)`, the first 2 digits of the password, and the holder's birth date
 * (6 digits) or a business number (10 digits). Messages are keys of `purchase.validation`. These
 * fields are only ever sent to the billing-key calls, never with an order.
 */
import { z } from '../forms/zod';
import type { CardBody } from '../api/models';

/** Months of a card's validity, 01 to 12. */
export const EXPIRY_MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'));

/** Spec section 5: the current year and the next 19 (20 choices). */
export function expiryYears(now: Date = new Date()): string[] {
  const first = now.getFullYear();
  return Array.from({ length: 20 }, (_, index) => String(first + index));
}

/** Spaces and dashes as people type a card number ("4111 1111-1111 1111"); the number is sent without them. */
export function cardDigits(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** The card form's schema; the years depend on `now`. Each field's message says what that field needs. */
export function cardSchema(now: Date = new Date()) {
  const years = expiryYears(now);
  return z.object({
    cardNumber: z
      .string()
      .transform(cardDigits)
      .pipe(z.string().regex(/^\d{14,16}$/, 'cardNumber')),
    expiryMonth: z.string().refine((value) => EXPIRY_MONTHS.includes(value), 'expiryMonth'),
    expiryYear: z.string().refine((value) => years.includes(value), 'expiryYear'),
    password: z.string().trim().regex(/^\d{2}$/, 'cardPassword'),
    birth: z.string().transform(cardDigits).pipe(z.string().regex(/^(\d{6}|\d{10})$/, 'birth')),
  });
}
export type CardForm = z.output<ReturnType<typeof cardSchema>>;

/** An empty card form. */
export const EMPTY_CARD: CardForm = { cardNumber: '', expiryMonth: '', expiryYear: '', password: '', birth: '' };

/** The card as the billing-key calls take it (numbers for the validity). */
export function toCardBody(card: CardForm): CardBody {
  return {
    cardNumber: card.cardNumber,
    expiryYear: Number(card.expiryYear),
    expiryMonth: Number(card.expiryMonth),
    password: card.password,
    birth: card.birth,
  };
}
