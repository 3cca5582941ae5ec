/**
 * Form schemas of the account pages (spec section 5). Messages are keys of `auth.validation` in
 * the catalogues, so one schema serves every language.
 */
import { z } from '../../forms/zod';
import { emailField, type FieldRuleKey } from '../../forms/fields';

const required = 'required' satisfies FieldRuleKey;

/** A current password to check: presence only, the server compares it (-406). */
export const currentPasswordSchema = z.object({ pw: z.string().min(1, required) });
export type CurrentPasswordForm = z.output<typeof currentPasswordSchema>;

export const emailChangeSchema = z.object({
  email: emailField,
  pw: z.string().min(1, required),
});
export type EmailChangeForm = z.output<typeof emailChangeSchema>;

export const nameSchema = z.object({ name: z.string().trim().min(1, required).max(50, required) });
export type NameForm = z.output<typeof nameSchema>;

export const deleteSchema = z.object({
  deletedReason: z.string().max(1000),
  pw: z.string().min(1, required),
  acknowledge: z.boolean().refine((value) => value, required),
});
export type DeleteForm = z.output<typeof deleteSchema>;
