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
  })
  .superRefine((form, ctx) => {
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
export type PurchaseFormInput = z.input<typeof purchaseSchema>;
export type PurchaseForm = z.output<typeof purchaseSchema>;
