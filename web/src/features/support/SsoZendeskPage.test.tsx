import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { leaveSite } from '../../browser/leave';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';

vi.mock('../../browser/leave', () => ({ leaveSite: vi.fn() }));

const DESK_PAGE = 'https://help.example.com/hc/ko/requests/new';

function renderAt(url: string) {
  return renderAtAddress(<AppRoutes />, url).location;
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const auth = (scope: number) => ({
  id: 'u-1',
  email: 'a@example.com',
  scope,
  accessToken: 'token',
  exp: Math.floor(Date.now() / 1000) + 3600,
});

function loggedIn(scope: number) {
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope, accessToken: 'token', expiredAt: Date.now() + 3_600_000 },
    sessionChecked: true,
  });
  document.cookie = 'logged_in=u-1; path=/';
}

/** A server that answers the desk call with `desk` and records every call. */
function server(desk: () => Response, extra: (url: string, init?: RequestInit) => Response | undefined = () => undefined) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      const answer = extra(url, init);
      if (answer) return answer;
      if (url.includes('/auth/zendesk')) return desk();
      if (url.includes('/integrations/settings')) return json(200, { deskUrl: '', chatScriptUrl: '', chatPluginKey: '', sentryDsn: '', sentryEnvironment: '' });
      return json(401, { errorCode: -401 });
    }),
  );
  return calls;
}

beforeEach(() => {
  vi.mocked(leaveSite).mockReset();
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko-KR', 'ko']);
  document.cookie = 'logged_in=; path=/; max-age=0';
  appStore.setState({ user: null, account: null, sessionChecked: false, operations: {} });
});

describe('support-desk sign-on', () => {
  it('sends a logged-out visitor to login with the desk address, and after login back to the sign-on', async () => {
    server(
      () => json(200, { zendeskJWT: 'jwt', signOnUrl: 'https://help.example.com/access/jwt?jwt=jwt' }),
      (url) => (url.includes('/auth/login') ? json(200, auth(1)) : url.includes('/auth/refresh') ? json(401, { errorCode: -401 }) : url.endsWith('/accounts') ? json(200, { email: 'a@example.com', name: 'A', prefferedLanguage: 'en', marketingPushEnabled: false }) : undefined),
    );
    const location = renderAt(`/en/sso/zendesk?zendesk_url=${encodeURIComponent(DESK_PAGE)}`);
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe(`/en/login?return_to=${encodeURIComponent(DESK_PAGE)}`);

    document.cookie = 'logged_in=u-1; path=/'; // what the login answer sets in a browser
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcd1234' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    await vi.waitFor(() => expect(leaveSite).toHaveBeenCalledWith('https://help.example.com/access/jwt?jwt=jwt'));
  });

  it('sends a scope 0 user to register/auth without asking the desk', async () => {
    loggedIn(0);
    const calls = server(() => json(200, {}));
    const location = renderAt('/en/sso/zendesk?zendesk_url=x');
    await screen.findByRole('heading', { level: 1, name: 'Email confirmation needed' });
    expect(location()).toBe('/en/register/auth');
    expect(calls.some((call) => call.includes('/auth/zendesk'))).toBe(false);
  });

  it('asks a user without a name for one, then goes on to the desk with the same address', async () => {
    loggedIn(1);
    let named = false;
    const calls = server(
      () =>
        named
          ? json(200, { zendeskJWT: 'jwt', signOnUrl: 'https://help.example.com/access/jwt?jwt=jwt&return_to=x' })
          : json(400, { errorCode: -2101, message: 'name required' }),
      (url, init) => {
        if (url.endsWith('/accounts') && init?.method === 'PATCH') {
          named = true;
          return json(200, { email: 'a@example.com', name: 'Kim', prefferedLanguage: 'en', marketingPushEnabled: false });
        }
        return undefined;
      },
    );
    const location = renderAt(`/en/sso/zendesk?zendesk_url=${encodeURIComponent(DESK_PAGE)}`);
    await screen.findByRole('heading', { level: 1, name: 'Enter your name' });
    expect(location()).toBe(`/en/account/name?zendesk_url=${encodeURIComponent(DESK_PAGE)}`);

    fireEvent.change(screen.getByLabelText('Name or nickname'), { target: { value: 'Kim' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    });
    await vi.waitFor(() => expect(leaveSite).toHaveBeenCalledTimes(1));
    const deskCalls = calls.filter((call) => call.includes('/auth/zendesk'));
    expect(deskCalls.at(-1)).toContain(`returnTo=${encodeURIComponent(DESK_PAGE)}`);
  });

  it('shows other failures in an alert and then goes home', async () => {
    loggedIn(1);
    server(() => json(500, { errorCode: -1002, message: 'boom' }));
    const location = renderAt('/en/sso/zendesk');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Help center sign-in error');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    });
    await vi.waitFor(() => expect(location()).toBe('/en'));
    expect(leaveSite).not.toHaveBeenCalled();
  });
});
