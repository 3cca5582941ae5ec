/**
 * Form schemas of the purchase page (spec section 5). Messages are keys of `purchase.validation`
 * in the catalogues, so one schema serves every language.
 */
import { z } from 'zod';
import { PAYMENT_METHODS } from '../payments/types';

export type PurchaseValidationKey = 'required' | 'email' | 'emailExact' | 'agreements' | 'selectMethod' | 'selectCard';

const EMAIL_RULE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const PURCHASE_AGREEMENTS = ['agreeTerms', 'agreePurchase', 'agreePersonal', 'agreePrivacy'] as const;
export type PurchaseAgreement = (typeof PURCHASE_AGREEMENTS)[number];

/**
 * The order: payment method, the four required agreements, and for guests an email (the account
 * the licence goes to). Logged-in buyers leave `email` empty: the server takes the account's.
 */
export const purchaseSchema = z
  .object({
    guest: z.boolean(),
    email: z.string().trim(),
    paymentMethod: z.enum(PAYMENT_METHODS, { message: 'selectMethod' satisfies PurchaseValidationKey }),
    agreeTerms: z.boolean(),
    agreePurchase: z.boolean(),
    agreePersonal: z.boolean(),
    agreePrivacy: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (form.guest) {
      if (form.email === '') {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'emailExact' satisfies PurchaseValidationKey });
      } else if (!EMAIL_RULE.test(form.email)) {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'email' satisfies PurchaseValidationKey });
      }
    }
    const missing = PURCHASE_AGREEMENTS.find((name) => !form[name]);
    if (missing) {
      ctx.addIssue({ code: 'custom', path: [missing], message: 'agreements' satisfies PurchaseValidationKey });
    }
  });
export type PurchaseFormInput = z.input<typeof purchaseSchema>;
export type PurchaseForm = z.output<typeof purchaseSchema>;

/** Months of a card's validity, 01 to 12. */
export const EXPIRY_MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'));

/** Spec section 5: the current year and the next 19 (20 choices). */
export function expiryYears(now: Date = new Date()): string[] {
  const first = now.getFullYear();
  return Array.from({ length: 20 }, (_, index) => String(first + index));
}

const required = 'required' satisfies PurchaseValidationKey;

/**
 * Card entry for a billing key (spec section 5): number without dashes, validity month 01-12 and
 * year among `expiryYears(now)`, the first 2 digits of the password, and the holder's birth date
 * (6 digits) or a business number (10 digits). These fields are only ever sent to the billing-key
 * call, never with an order.
 */
export function cardSchema(now: Date = new Date()) {
  const years = expiryYears(now);
  return z.object({
    cardNumber: z.string().regex(/^\d{14,16}$/, required),
    expiryMonth: z.string().refine((value) => EXPIRY_MONTHS.includes(value), required),
    expiryYear: z.string().refine((value) => years.includes(value), required),
    password: z.string().regex(/^\d{2}$/, required),
    birth: z.string().regex(/^(\d{6}|\d{10})$/, required),
  });
}
export type CardForm = z.output<ReturnType<typeof cardSchema>>;

/** The card as the billing-key calls take it (numbers for the validity). */
export interface CardBody {
  cardNumber: string;
  expiryYear: number;
  expiryMonth: number;
  password: string;
  birth: string;
}

export function toCardBody(card: CardForm): CardBody {
  return {
    cardNumber: card.cardNumber,
    expiryYear: Number(card.expiryYear),
    expiryMonth: Number(card.expiryMonth),
    password: card.password,
    birth: card.birth,
  };
}
