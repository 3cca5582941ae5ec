import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  createMemoryRouter,
  Link,
  matchRoutes,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useLocation,
  useParams,
  useSearchParams,
  type RouteObject,
} from './router';

function Where() {
  const { pathname, search, state } = useLocation();
  return <p data-testid="where">{`${pathname}${search} ${JSON.stringify(state)}`}</p>;
}

function Payment() {
  const { licenseId } = useParams();
  return <p>payment {licenseId}</p>;
}

function Coupon() {
  const [params, setParams] = useSearchParams();
  return (
    <button
      type="button"
      onClick={() =>
        setParams(
          (current) => {
            current.set('code', 'SPRING');
            return current;
          },
          { replace: true },
        )
      }
    >
      code {params.get('code') ?? 'none'}
    </button>
  );
}

const routes: RouteObject[] = [
  { path: '/', element: <Navigate replace to="/ko" /> },
  {
    path: '/:lang',
    element: (
      <main>
        <NavLink to="/ko/purchase">Purchase</NavLink>
        <Outlet />
        <Where />
      </main>
    ),
    children: [
      { index: true, element: <Link to="/ko/purchase" state={{ from: 'home' }}>home</Link> },
      { path: 'purchase', element: <Coupon /> },
      { path: 'payment/:licenseId', element: <Payment /> },
      { path: 'payment/confirm', element: <p>confirmed</p> },
      { path: '*', element: <p>not found</p> },
    ],
  },
];

function show(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('the router', () => {
  it('ranks a static segment above a parameter, whatever the order of the routes', () => {
    const matched = (path: string) => matchRoutes(routes, path)?.at(-1);
    expect(matched('/ko/payment/confirm')?.route.path).toBe('payment/confirm');
    expect(matched('/ko/payment/12')?.params).toMatchObject({ lang: 'ko', licenseId: '12' });
    expect(matched('/ko')?.route.index).toBe(true);
    expect(matched('/ko/nothing/here')?.params['*']).toBe('nothing/here');
  });

  it('redirects, follows a link with its state and marks the link to the current page', async () => {
    const router = show('/');
    expect(await screen.findByText('home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/ko');
    expect(screen.getByText('Purchase').getAttribute('aria-current')).toBeNull();

    fireEvent.click(screen.getByText('home'));
    expect(await screen.findByText('code none')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/ko/purchase {"from":"home"}');
    expect(screen.getByText('Purchase').getAttribute('aria-current')).toBe('page');
  });

  it('reads the params and changes the query in place', async () => {
    const router = show('/en/payment/7');
    expect(await screen.findByText('payment 7')).toBeTruthy();
    await act(() => router.navigate('/en/purchase?x=1'));
    fireEvent.click(await screen.findByText('code none'));
    expect(await screen.findByText('code SPRING')).toBeTruthy();
    expect(router.state.location.search).toBe('?x=1&code=SPRING');
    await act(() => router.navigate(-1));
    expect(await screen.findByText('payment 7')).toBeTruthy();
  });
});
