import { act, fireEvent, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { Link, Route, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { renderAtAddress } from '../test/renderAtAddress';
import { NavLink, useCurrentLocation, useNavigate, useSearchParams } from './location';

describe('a navigation to a page that is not ready', () => {
  it('keeps the current page on screen, without the fallback, until the next one can render', async () => {
    let loaded: (page: { default: ComponentType }) => void = () => undefined;
    const Next = lazy(() => new Promise<{ default: ComponentType }>((resolve) => (loaded = resolve)));
    renderAtAddress(
      <Suspense fallback={<p>Loading</p>}>
        <Switch>
          <Route path="/a">
            <h1>Page A</h1>
            <Link to="/b">To B</Link>
          </Route>
          <Route path="/b">
            <Next />
          </Route>
        </Switch>
      </Suspense>,
      '/a',
    );

    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'To B' })));
    expect(window.location.pathname).toBe('/b');
    expect(screen.getByRole('heading', { name: 'Page A' })).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();

    await act(async () => loaded({ default: () => <h1>Page B</h1> }));
    expect(await screen.findByRole('heading', { name: 'Page B' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page A' })).toBeNull();
  });
});

describe('NavLink', () => {
  const menu = (
    <nav>
      <NavLink to="/en/license?code=A" className="item">
        Licences
      </NavLink>
      <NavLink to="/en/account">Account</NavLink>
    </nav>
  );

  it('marks the link of the shown path and of the paths below it, whatever the query', async () => {
    renderAtAddress(menu, '/en/license');
    const licences = screen.getByRole('link', { name: 'Licences' });
    expect(licences.getAttribute('aria-current')).toBe('page');
    expect(licences.className).toBe('item active');
    expect(licences.getAttribute('href')).toBe('/en/license?code=A');
    const account = screen.getByRole('link', { name: 'Account' });
    expect(account.getAttribute('aria-current')).toBeNull();
    expect(account.className).toBe('');

    await act(async () => navigate('/EN/License/12/upgrade'));
    expect(licences.getAttribute('aria-current')).toBe('page');
    await act(async () => navigate('/en/licenses'));
    expect(licences.getAttribute('aria-current')).toBeNull();
    expect(licences.className).toBe('item');
  });
});

function Probe() {
  const location = useCurrentLocation();
  const navigateTo = useNavigate();
  const [params, setParams] = useSearchParams();
  return (
    <>
      <output aria-label="location">{JSON.stringify(location)}</output>
      <output aria-label="code">{params.get('code')}</output>
      <Link to="/here?x=1">Same address</Link>
      <Link to="/elsewhere" state={{ from: 'link' }}>
        Elsewhere
      </Link>
      <button type="button" onClick={() => navigateTo('/next?code=N', { state: { step: 2 } })}>
        Next
      </button>
      <button type="button" onClick={() => setParams((current) => ({ code: `${current.get('code') ?? ''}+` }), { replace: true })}>
        Change code
      </button>
      <button type="button" onClick={() => setParams({})}>
        Drop query
      </button>
    </>
  );
}

const shown = () => JSON.parse(screen.getByRole('status', { name: 'location' }).textContent ?? '{}') as unknown;

describe('the current location', () => {
  it('is the address as written, with the state of its history entry', async () => {
    renderAtAddress(<Probe />, '/here?code=100%25%2Bx#part', { from: 'test' });
    expect(shown()).toEqual({ pathname: '/here', search: '?code=100%25%2Bx', hash: '#part', state: { from: 'test' } });
    expect(screen.getByRole('status', { name: 'code' }).textContent).toBe('100%+x');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next' })));
    expect(shown()).toEqual({ pathname: '/next', search: '?code=N', hash: '', state: { step: 2 } });
    expect(window.history.state).toEqual({ step: 2 });

    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' })));
    expect(shown()).toEqual({ pathname: '/elsewhere', search: '', hash: '', state: { from: 'link' } });
  });

  it('sets the query on the same path, replacing the entry when asked', async () => {
    renderAtAddress(<Probe />, '/here?code=A&other=1');
    const entries = window.history.length;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change code' })));
    expect(`${window.location.pathname}${window.location.search}`).toBe('/here?code=A%2B');
    expect(screen.getByRole('status', { name: 'code' }).textContent).toBe('A+');
    expect(window.history.length).toBe(entries);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Drop query' })));
    expect(`${window.location.pathname}${window.location.search}`).toBe('/here');
    expect(window.history.length).toBe(entries + 1);
  });

  it('replaces the history entry when a link leads to the address already shown, and adds one otherwise', async () => {
    renderAtAddress(<Probe />, '/here?x=1');
    const entries = window.history.length;
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Same address' })));
    expect(window.history.length).toBe(entries);
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' })));
    expect(window.history.length).toBe(entries + 1);
    expect(window.location.pathname).toBe('/elsewhere');
  });
});
