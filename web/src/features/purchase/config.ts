/**
 * Subscriptions with a billing key: a logged-in buyer of a monthly or annual licence may enter a
 * card that is registered as a billing key and charged at every renewal. Turning this off hides
 * the option and the card fields.
 */
export const BILLING_KEY_SUBSCRIPTIONS = true;
