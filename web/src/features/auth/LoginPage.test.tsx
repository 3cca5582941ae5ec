import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';

function renderAt(url: string, state?: unknown) {
  return renderAtAddress(<AppRoutes />, url, state).location;
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

async function submitLogin(email: string, pw: string, submitName = 'Log in') {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: pw } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: submitName }));
  });
}

beforeEach(() => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko-KR', 'ko']);
  appStore.setState({ user: null, account: null, sessionChecked: false, operations: {} });
  appStore.getState().closeMenus();
});

describe('login page', () => {
  it('shows the validation messages before calling the server', async () => {
    const fetchMock = vi.fn(async () => json(404, {}));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/en/login');
    await submitLogin('nope', '');
    expect(await screen.findByText('Invalid email format.')).toBeTruthy();
    expect(screen.getByText('Please enter it correctly.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]: unknown[]) => String(url).includes('/auth/login'))).toBe(false);
  });

  it('shows a 401 as inline text in the page language', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { errorCode: -400, message: '이메일 또는 비밀번호가 일치하지 않습니다.' })));
    renderAt('/en/login');
    await submitLogin('a@example.com', 'wrong1234');
    expect(await screen.findByText('The email or password does not match.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(appStore.getState().operations.login?.status).toBe('failure');
  });

  it('shows other failures as an alert with the login title', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(429, { errorCode: -4, message: 'Too many' })));
    renderAt('/en/login');
    await submitLogin('a@example.com', 'abcd1234');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Login error');
    expect(dialog.textContent).toContain('Too many requests. Please try again later.');
  });

  it('says how long to wait when the API refuses too many attempts', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ errorCode: -4, message: 'Too many' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '545' },
          }),
      ),
    );
    renderAt('/en/login');
    await submitLogin('a@example.com', 'abcd1234');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Too many requests. Please try again in 10 minutes.');
  });

  it('sends a scope 0 user to register/auth', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, auth(0))));
    const location = renderAt('/en/login');
    await submitLogin('a@example.com', 'abcd1234');
    await screen.findByRole('heading', { level: 1, name: 'Email confirmation needed' });
    expect(location()).toBe('/en/register/auth');
  });

  it('goes back to the page that sent the visitor to login, in the account language', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/auth/login')
          ? json(200, auth(1))
          : json(200, { id: 'u-1', email: 'a@example.com', name: 'Ann', prefferedLanguage: 'ja', marketingPushEnabled: false }),
      ),
    );
    const location = renderAt('/en/account');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/en/login');
    document.cookie = 'logged_in=u-1; path=/';
    await submitLogin('a@example.com', 'abcd1234');
    await screen.findByRole('heading', { level: 1, name: 'アカウント設定' });
    expect(location()).toBe('/ja/account');
  });
});

describe('My Account menu', () => {
  it('opens for a logged-in user and logs out to login from a guarded page', async () => {
    document.cookie = 'logged_in=u-1; path=/';
    appStore.setState({
      user: { userId: 'u-1', email: 'a@example.com', scope: 1, accessToken: 't', expiredAt: Date.now() + 3600_000 },
      sessionChecked: true,
    });
    const fetchMock = vi.fn(async (url: string) =>
      url.includes('/auth/logout')
        ? json(200, { result: true })
        : json(200, { id: 'u-1', email: 'a@example.com', name: null, prefferedLanguage: 'en', marketingPushEnabled: false }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const location = renderAt('/en/account');
    await screen.findByRole('heading', { level: 1, name: 'Account settings' });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'My Account' })));
    const menu = screen.getByRole('region', { name: 'My account menu' });
    for (const name of ['Account settings', 'Licence management', 'Purchase history']) {
      expect(within(menu).getByRole('link', { name }).getAttribute('href')).toMatch(/^\/en\//);
    }
    expect(screen.getByRole('button', { name: /Products/ })).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Log out' })));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/en/login');
    expect(appStore.getState().user).toBeNull();
    expect(fetchMock.mock.calls.some(([url]: unknown[]) => String(url).endsWith('/auth/logout'))).toBe(true);
  });
});
