/** The inline error text of spec section 8, under the field it belongs to, and the text it shows for a form error. */
import type { ReactNode } from 'react';
import type { FieldError as FormFieldError } from 'react-hook-form';
import './kit.css';

/** Nothing when there is no error; `id` is what the field's aria-describedby names. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {children}
    </p>
  );
}

/**
 * A server error (set with `type: 'server'`) reads as its message; a schema error's message is a
 * key of `messages` (the feature's `validation` catalogue), unknown keys reading as `required`.
 */
export function fieldErrorText(
  error: FieldErrorLike,
  messages: { required: string } & Record<string, string>,
): string | undefined {
  if (!error) return undefined;
  if (error.type === 'server') return error.message || messages.required;
  return (error.message && messages[error.message]) || messages.required;
}

/** What `fieldErrorText` reads of a react-hook-form field error. */
export type FieldErrorLike = Pick<FormFieldError, 'type' | 'message'> | undefined;
