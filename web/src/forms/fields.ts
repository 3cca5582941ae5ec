/**
 * Field rules shared by the forms of several features (spec section 5). Messages are keys that
 * each feature's `validation` catalogue translates, so one rule serves every language.
 */
import { z } from './zod';

/** Keys the shared rules use as messages. */
export type FieldRuleKey = 'required' | 'email' | 'password';

/** English letters and digits combined (at least one of each), 8-20 characters, no spaces. */
export const PASSWORD_RULE = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{8,20}$/;

/** A local part, an @ and a domain with at least one dot. */
export const EMAIL_RULE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** A required email (trimmed): 'required' when empty, 'email' when malformed. */
export const emailField = z
  .string()
  .trim()
  .min(1, 'required' satisfies FieldRuleKey)
  .regex(EMAIL_RULE, 'email' satisfies FieldRuleKey);

/** A new password following PASSWORD_RULE. */
export const passwordField = z.string().regex(PASSWORD_RULE, 'password' satisfies FieldRuleKey);

/**
 * The four required agreements of spec section 5 (terms of use, purchase policy, personal
 * information, privacy policy), asked by the registration and the purchase forms alike.
 */
export const AGREEMENTS = ['agreeTerms', 'agreePurchase', 'agreePersonal', 'agreePrivacy'] as const;
export type AgreementName = (typeof AGREEMENTS)[number];

/** The first agreement left unticked, or undefined when all four are given. */
export function missingAgreement(form: Record<AgreementName, boolean>): AgreementName | undefined {
  return AGREEMENTS.find((name) => !form[name]);
}
