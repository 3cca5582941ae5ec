/**
 * Form schemas of the auth pages (spec section 5). Messages are keys of `auth.validation` in the
 * catalogues, so one schema serves every language.
 */
import { z } from '../../forms/zod';
import { emailField, type FieldRuleKey, missingAgreement, passwordField } from '../../forms/fields';
import { LANGUAGES } from '../../i18n/languages';

export type ValidationKey = FieldRuleKey | 'emailExact' | 'passwordMismatch' | 'agreements';

/** Login checks presence only: the server says whether the pair matches. */
export const loginSchema = z.object({
  email: emailField,
  pw: z.string().min(1, 'required' satisfies ValidationKey),
});
export type LoginForm = z.output<typeof loginSchema>;

export const registerSchema = z
  .object({
    email: emailField,
    pw: passwordField,
    pwConfirm: z.string(),
    language: z.enum(LANGUAGES),
    marketingPushEnabled: z.boolean(),
    agreeTerms: z.boolean(),
    agreePurchase: z.boolean(),
    agreePersonal: z.boolean(),
    agreePrivacy: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (form.pwConfirm !== form.pw) {
      ctx.addIssue({ code: 'custom', path: ['pwConfirm'], message: 'passwordMismatch' satisfies ValidationKey });
    }
    const missing = missingAgreement(form);
    if (missing) {
      ctx.addIssue({ code: 'custom', path: [missing], message: 'agreements' satisfies ValidationKey });
    }
  });
export type RegisterForm = z.output<typeof registerSchema>;

export const emailOnlySchema = z.object({ email: emailField });
export type EmailOnlyForm = z.output<typeof emailOnlySchema>;

export const newPasswordSchema = z
  .object({ pw: passwordField, pwConfirm: z.string() })
  .superRefine((form, ctx) => {
    if (form.pwConfirm !== form.pw) {
      ctx.addIssue({ code: 'custom', path: ['pwConfirm'], message: 'passwordMismatch' satisfies ValidationKey });
    }
  });
export type NewPasswordForm = z.output<typeof newPasswordSchema>;
