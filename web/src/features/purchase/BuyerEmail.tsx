/** Who the order is for: a guest types the email its account is made with; a member buys as the account. */
import type { FieldError as FormFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { fieldErrorText } from '../../ui/FieldError';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { TextField } from '../../ui/TextField';

export function BuyerEmail({
  memberEmail,
  input,
  error,
}: {
  /** The logged-in buyer's email; null for a guest. */
  memberEmail: string | null;
  input: UseFormRegisterReturn;
  error: FormFieldError | undefined;
}) {
  const t = useT();
  if (memberEmail !== null) return <p className="hint">{format(t.purchase.buyingAs, { email: memberEmail })}</p>;
  return (
    <TextField
      id="purchase-email"
      className="purchase__email"
      label={t.purchase.emailLabel}
      hint={t.purchase.emailHint}
      error={fieldErrorText(error, t.purchase.validation)}
      inputProps={{ type: 'email', autoComplete: 'email', placeholder: t.purchase.emailPlaceholder, ...input }}
    />
  );
}
