/** WebAuthn ceremonies with @simplewebauthn/browser; the server signs each challenge into the ceremony token. */
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { type Ceremony, type Member, type SignedIn, staffCall } from './api';

type Options = Parameters<typeof startRegistration>[0]['optionsJSON'];
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

export async function enrolWithPasskey(token: string): Promise<SignedIn> {
  const ceremony = await staffCall<Ceremony>('POST', '/enrolment/passkey/options', { token });
  const credential = await startRegistration({ optionsJSON: ceremony.options as unknown as Options });
  return staffCall<SignedIn>('POST', '/enrolment/passkey', {
    token,
    ceremony: ceremony.ceremony,
    credential,
    label: 'passkey',
  });
}

export async function signInWithPasskey(email: string): Promise<SignedIn> {
  const ceremony = await staffCall<Ceremony>('POST', '/sign-in/passkey/options', { email });
  const credential = await startAuthentication({ optionsJSON: ceremony.options as unknown as RequestOptions });
  return staffCall<SignedIn>('POST', '/sign-in/passkey', { ceremony: ceremony.ceremony, credential });
}

export async function stepUpWithPasskey(): Promise<SignedIn> {
  const ceremony = await staffCall<Ceremony>('POST', '/step-up/passkey/options');
  const credential = await startAuthentication({ optionsJSON: ceremony.options as unknown as RequestOptions });
  return staffCall<SignedIn>('POST', '/step-up/passkey', { ceremony: ceremony.ceremony, credential });
}

export function may(member: Member | undefined, permission: string): boolean {
  return !!member && member.permissions.includes(permission);
}
