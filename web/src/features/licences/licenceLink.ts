/**
 * The licence link of spec section 4 (`/{lang}/license?userLicenseKey=..&email=..`, sent in purchase
 * mails): a logged-in user with a confirmed address sees the licence page with the key; a logged-in
 * user whose scope is still 0 is renewed once (the address may have been confirmed since) and goes to
 * register/auth when it still is. A logged-out visitor whose address is registered is checked for
 * confirmation: confirmed goes to login (then back to the licence page), unconfirmed to the
 * email-confirmation page; an unregistered address (a guest purchase's counts as one) goes to register
 * with the key and the address. An unknown key goes home.
 */
import { apiGet, type Schema } from '../../api/typed';
import type { AuthUser } from '../../session/types';

export type LinkStep =
  | { to: 'licence' }
  | { to: 'registerAuth' }
  | { to: 'login'; email: string }
  | { to: 'emailAuth'; email: string }
  | { to: 'register'; userLicenseKey: string; email: string }
  | { to: 'home' };

export interface LinkCalls {
  /** GET /accounts/check/email?userLicenseKey: whether the key's holder is registered and confirmed. */
  keyHolder: (userLicenseKey: string) => Promise<Schema<'KeyEmailCheck'>>;
  /** GET /accounts/check?email: whether a member uses the address. */
  isRegistered: (email: string) => Promise<boolean>;
  /** Renews the session (its scope follows the account's confirmation). */
  renew: () => Promise<AuthUser | null>;
}

export interface LinkInput {
  user: AuthUser | null;
  userLicenseKey: string;
  email: string | undefined;
}

/** Where a licence link leads this visitor. */
export async function licenceLinkStep({ user, userLicenseKey, email }: LinkInput, calls: LinkCalls): Promise<LinkStep> {
  if (user) {
    if (user.scope >= 1) return { to: 'licence' };
    const renewed = await calls.renew();
    return renewed && renewed.scope >= 1 ? { to: 'licence' } : { to: 'registerAuth' };
  }
  let holder: Schema<'KeyEmailCheck'>;
  let registered: boolean;
  try {
    holder = await calls.keyHolder(userLicenseKey);
    registered = email ? await calls.isRegistered(email) : holder.isRegistered;
  } catch {
    return { to: 'home' };
  }
  const address = email ?? '';
  if (!registered) return { to: 'register', userLicenseKey, email: address };
  return holder.emailConfirmed ? { to: 'login', email: address } : { to: 'emailAuth', email: address };
}

/** The calls of the flow, against the server. */
export const serverLinkCalls = (renew: () => Promise<AuthUser | null>): LinkCalls => ({
  keyHolder: (userLicenseKey) => apiGet('/accounts/check/email', { query: { userLicenseKey } }),
  isRegistered: async (email) => (await apiGet('/accounts/check', { query: { email } })).isRegistered,
  renew,
});
