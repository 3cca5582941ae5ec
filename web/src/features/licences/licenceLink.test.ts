import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { AuthUser } from '../../session/types';
import { licenceLinkStep, type LinkCalls } from './licenceLink';

const user = (scope: number): AuthUser => ({
  userId: 'u-1',
  email: 'owner@example.com',
  scope,
  accessToken: 'token',
  expiredAt: Date.now() + 3_600_000,
});

function calls(overrides: Partial<LinkCalls> = {}): LinkCalls {
  return {
    keyHolder: vi.fn(async () => ({ isRegistered: true, emailConfirmed: true })),
    isRegistered: vi.fn(async () => true),
    renew: vi.fn(async () => null),
    ...overrides,
  };
}

const link = { userLicenseKey: 'KEY-1', email: 'owner@example.com' };

describe('the licence link', () => {
  it('shows a confirmed member the licence page straight away', async () => {
    const server = calls();
    expect(await licenceLinkStep({ ...link, user: user(1) }, server)).toEqual({ to: 'licence' });
    expect(server.keyHolder).not.toHaveBeenCalled();
  });

  it('renews a scope 0 member once: confirmed since then sees the licence page, otherwise register/auth', async () => {
    expect(await licenceLinkStep({ ...link, user: user(0) }, calls({ renew: async () => user(1) }))).toEqual({
      to: 'licence',
    });
    expect(await licenceLinkStep({ ...link, user: user(0) }, calls({ renew: async () => user(0) }))).toEqual({
      to: 'registerAuth',
    });
  });

  it('sends a logged-out visitor with a registered, confirmed address to login', async () => {
    expect(await licenceLinkStep({ ...link, user: null }, calls())).toEqual({ to: 'login', email: 'owner@example.com' });
  });

  it('sends a logged-out visitor with a registered but unconfirmed address to the confirmation page', async () => {
    const server = calls({
      keyHolder: async () => ({ isRegistered: true, emailConfirmed: false }),
    });
    expect(await licenceLinkStep({ ...link, user: null }, server)).toEqual({ to: 'emailAuth', email: 'owner@example.com' });
  });

  it('sends an unregistered address (a guest purchase counts as one) to register with the key and the address', async () => {
    const server = calls({ isRegistered: async () => false });
    expect(await licenceLinkStep({ ...link, user: null }, server)).toEqual({
      to: 'register',
      userLicenseKey: 'KEY-1',
      email: 'owner@example.com',
    });
  });

  it('never learns an address from the key: a link without one leaves the address for the visitor to type', async () => {
    const server = calls({ keyHolder: async () => ({ isRegistered: false, emailConfirmed: false }) });
    expect(await licenceLinkStep({ userLicenseKey: 'KEY-1', email: undefined, user: null }, server)).toEqual({
      to: 'register',
      userLicenseKey: 'KEY-1',
      email: '',
    });
  });

  it('goes home for an unknown key', async () => {
    const server = calls({
      keyHolder: async () => {
        throw new ApiError(-404, 404, undefined, 'response');
      },
    });
    expect(await licenceLinkStep({ ...link, user: null }, server)).toEqual({ to: 'home' });
  });
});
