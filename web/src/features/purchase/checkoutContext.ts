/** What every checkout flow of the purchase page is given, and what it gives back to the page. */
import type { BaseSyntheticEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { PurchasableLicence } from '../../api/models';
import type { AuthUser } from '../../session/types';
import type { AlertContent } from '../../ui/AlertDialog';
import type { Plan } from './catalogue';
import type { PurchaseForm, PurchaseFormInput } from './schemas';

export interface CheckoutContext {
  /** The order form: method, agreements and a guest's email. */
  order: UseFormReturn<PurchaseFormInput, unknown, PurchaseForm>;
  licence: PurchasableLicence | undefined;
  plan: Plan | undefined;
  country: string;
  /** The logged-in buyer; null for a guest. */
  member: AuthUser | null;
  /** Absolute address the gateway sends a phone back to (/{lang}/payment/confirm). */
  redirectUrl: string;
  paying: boolean;
  setPaying: (paying: boolean) => void;
  showAlert: (alert: AlertContent) => void;
  /** The applied coupon's code when it discounts the chosen plan (the order carries it). */
  couponCode?: string | undefined;
}

export interface Checkout {
  /** Validates the order (and the flow's own fields), then pays. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  /** Fields the flow adds under the payment method (the card entry). */
  fields?: React.ReactNode;
  /** What the flow says under the payment methods (which window opens). */
  methodHint?: string | undefined;
}
