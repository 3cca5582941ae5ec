/**
 * Form schemas of the account pages (spec section 5). Messages are keys of `auth.validation` in
 * the catalogues, so one schema serves every language.
 */
import { z } from 'zod';
import { LANGUAGES } from '../../i18n/languages';

export type ValidationKey = 'required' | 'email' | 'emailExact' | 'password' | 'passwordMismatch' | 'agreements';

/** English letters and digits combined (at least one of each), 8-20 characters, no spaces. */
export const PASSWORD_RULE = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{8,20}$/;

const EMAIL_RULE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const emailField = z
  .string()
  .trim()
  .min(1, 'required' satisfies ValidationKey)
  .regex(EMAIL_RULE, 'email' satisfies ValidationKey);

export const passwordField = z.string().regex(PASSWORD_RULE, 'password' satisfies ValidationKey);

/** Login checks presence only: the server says whether the pair matches. */
export const loginSchema = z.object({
  email: emailField,
  pw: z.string().min(1, 'required' satisfies ValidationKey),
});
export type LoginForm = z.output<typeof loginSchema>;

export const AGREEMENTS = ['agreeTerms', 'agreePurchase', 'agreePersonal', 'agreePrivacy'] as const;
export type AgreementName = (typeof AGREEMENTS)[number];

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
    const missing = AGREEMENTS.find((name) => !form[name]);
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

/** A current password to check: presence only, the server compares it (-406). */
export const currentPasswordSchema = z.object({ pw: z.string().min(1, 'required' satisfies ValidationKey) });
export type CurrentPasswordForm = z.output<typeof currentPasswordSchema>;

export const emailChangeSchema = z.object({
  email: emailField,
  pw: z.string().min(1, 'required' satisfies ValidationKey),
});
export type EmailChangeForm = z.output<typeof emailChangeSchema>;

export const nameSchema = z.object({ name: z.string().trim().min(1, 'required' satisfies ValidationKey).max(50, 'required') });
export type NameForm = z.output<typeof nameSchema>;

export const deleteSchema = z.object({
  deletedReason: z.string().max(1000),
  pw: z.string().min(1, 'required' satisfies ValidationKey),
  acknowledge: z.boolean().refine((value) => value, 'required' satisfies ValidationKey),
});
export type DeleteForm = z.output<typeof deleteSchema>;
