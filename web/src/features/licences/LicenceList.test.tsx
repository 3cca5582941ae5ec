import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function licence(id: string, name: string) {
  return {
    id,
    newLicenseId: 111,
    name,
    licenseKey: `KEY-${id}`,
    licenseId: 111,
    state: 'active',
    startAt: '2026-11-01T00:00:00+09:00',
    expiredAt: '2026-12-01T00:00:00+09:00',
    depositDeadline: null,
    devices: [],
    maxDevicesCount: 1,
    isSubscription: false,
    allowedActions: [],
  };
}

/** A member's server: their licences (one more after a key is registered), and the key nobody holds refused. */
function server() {
  const held = [licence('l-1', 'Unicorn Pro Android')];
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.includes('/licenses/mine')) return json(200, held);
      if (url.includes('/licenses/NOBODY-HOLDS-THIS/giveme')) return json(404, { errorCode: 404, message: 'not found' });
      if (url.includes('/giveme')) {
        held.unshift(licence('l-2', 'Unicorn Pro Windows'));
        return json(200, {});
      }
      if (url.includes('/integrations/settings')) {
        return json(200, { deskUrl: '', chatScriptUrl: '', chatPluginKey: '', sentryDsn: '', sentryEnvironment: '' });
      }
      return json(401, { errorCode: -401 });
    }),
  );
  return calls;
}

/** The key field once the form's own code has arrived (until then its card stands idle, the field disabled). */
function workingKeyField(): Promise<HTMLInputElement> {
  return vi.waitFor(
    () => {
      const field = screen.getByLabelText('Licence key') as HTMLInputElement;
      expect(field.disabled).toBe(false);
      return field;
    },
    { timeout: 5000 },
  );
}

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'en']);
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
    sessionChecked: true,
    operations: {},
  });
  document.cookie = 'logged_in=u-1; path=/';
});

describe('the licence page', () => {
  it('shows the list with the key form in its place, which works once its code has arrived', async () => {
    server();
    renderAtAddress(<AppRoutes />, '/en/license');
    await screen.findByRole('link', { name: 'Unicorn Pro Android' });
    const working = await workingKeyField();
    fireEvent.change(working, { target: { value: 'WIND-OWS1-2345-6789' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    });
    await screen.findByText('The licence has been registered.');
    await screen.findByRole('link', { name: 'Unicorn Pro Windows' });
    expect((screen.getByLabelText('Licence key') as HTMLInputElement).value).toBe('');
  });

  it('shows why a key nobody holds was refused under the field', async () => {
    const calls = server();
    renderAtAddress(<AppRoutes />, '/en/license');
    const field = await workingKeyField();
    fireEvent.change(field, { target: { value: 'NOBODY-HOLDS-THIS' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    });
    await vi.waitFor(() => expect(document.getElementById('licence-key-error')?.textContent).toBeTruthy());
    expect(calls.filter((call) => call.includes('/giveme'))).toHaveLength(1);
  });
});
