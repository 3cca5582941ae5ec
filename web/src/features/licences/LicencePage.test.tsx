import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url).location;
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A logged-out visitor's server: the key's holder and whether the address is a member's. */
function server(holder: { email: string; isRegistered: boolean; emailConfirmed: boolean }, registered: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.includes('/accounts/check/email')) return json(200, holder);
      if (url.includes('/accounts/check?')) return json(200, { isRegistered: registered });
      return json(401, { errorCode: -401 });
    }),
  );
}

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko-KR', 'ko']);
  document.cookie = 'logged_in=; path=/; max-age=0';
  appStore.setState({ user: null, account: null, sessionChecked: false, operations: {} });
  appStore.getState().closeMenus();
});

describe('a licence link opened while logged out', () => {
  it('sends an address that is not a member (a guest purchase) to register with the key and the address', async () => {
    server({ email: 'guest@example.com', isRegistered: false, emailConfirmed: false }, false);
    const location = renderAt('/en/license?userLicenseKey=KEY-1&email=guest%40example.com');
    await vi.waitFor(() => expect(location()).toBe('/en/register?userLicenseKey=KEY-1&email=guest%40example.com'));
  });

  it("sends a confirmed member's address to login", async () => {
    server({ email: 'member@example.com', isRegistered: true, emailConfirmed: true }, true);
    const location = renderAt('/en/license?userLicenseKey=KEY-1&email=member%40example.com');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/en/login?email=member%40example.com');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('member@example.com');
  });

  it("sends an unconfirmed member's address to the confirmation page", async () => {
    server({ email: 'member@example.com', isRegistered: true, emailConfirmed: false }, true);
    const location = renderAt('/en/license?userLicenseKey=KEY-1&email=member%40example.com');
    await vi.waitFor(() => expect(location()).toBe('/en/email-auth?email=member%40example.com'));
  });
});
