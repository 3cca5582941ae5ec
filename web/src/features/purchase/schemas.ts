/**
 * The order form of the purchase page (spec section 5). Messages are keys of
 * `purchase.validation` in the catalogues, so one schema serves every language. The card entry of
 * a subscription has its own schema (billing/cardSchema.ts).
 */
import { z } from '../../forms/zod';
import { PAYMENT_METHODS } from '../../billing/paymentMethods';
import { EMAIL_RULE, missingAgreement } from '../../forms/fields';

export type PurchaseValidationKey = 'required' | 'email' | 'emailExact' | 'agreements' | 'selectMethod' | 'selectCard';

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
    // A cash receipt (현금영수증) for a bank transfer or virtual account (docs/papers.md); the server checks the number.
    cashReceiptType: z.enum(['none', 'personal', 'business']).default('none'),
    cashReceiptNumber: z.string().trim().default(''),
  })
  .superRefine((form, ctx) => {
    if (form.cashReceiptType !== 'none' && CASH_RECEIPT_METHODS.includes(form.paymentMethod) && form.cashReceiptNumber === '') {
      ctx.addIssue({ code: 'custom', path: ['cashReceiptNumber'], message: 'required' satisfies PurchaseValidationKey });
    }
    if (form.guest) {
      if (form.email === '') {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'emailExact' satisfies PurchaseValidationKey });
      } else if (!EMAIL_RULE.test(form.email)) {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'email' satisfies PurchaseValidationKey });
      }
    }
    const missing = missingAgreement(form);
    if (missing) {
      ctx.addIssue({ code: 'custom', path: [missing], message: 'agreements' satisfies PurchaseValidationKey });
    }
  });
/** The methods a cash receipt is issued for. */
export const CASH_RECEIPT_METHODS: readonly string[] = ['bankTransfer', 'virtualAccount'];

/** The order's cash-receipt choice as the server takes it (none unless the method takes one). */
export function cashReceiptOf(form: PurchaseForm): { type: 'personal' | 'business'; number: string } | undefined {
  if (form.cashReceiptType === 'none' || !CASH_RECEIPT_METHODS.includes(form.paymentMethod)) return undefined;
  return { type: form.cashReceiptType, number: form.cashReceiptNumber };
}

export type PurchaseFormInput = z.input<typeof purchaseSchema>;
export type PurchaseForm = z.output<typeof purchaseSchema>;
