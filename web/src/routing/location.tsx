/**
 * The address the app shows, for wouter. wouter matches routes and handles links; this module gives it the browser's
 * location one transition behind: a navigation renders the next page in the background, and a page that suspends
 * there (its code, its catalogue part) leaves the current page on screen until it is ready, instead of a fallback.
 */
import { createContext, useContext, useDeferredValue, useMemo, type MouseEventHandler, type ReactNode } from 'react';
import { Link, Router, useLocation, type AroundNavHandler } from 'wouter';
import {
  navigate as browserNavigate,
  useHistoryState,
  useLocationProperty,
  usePathname,
  useSearch,
} from 'wouter/use-browser-location';
import { useScrollRestoration } from './scroll';

/** The location a page renders for: the path, query and hash as in the address bar, and its history entry's state. */
export interface CurrentLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type Navigate = (to: string, options?: NavigateOptions) => void;

const ShownLocation = createContext<CurrentLocation | null>(null);

const readHash = () => window.location.hash;

/** The shown location, as it is in the address bar (not decoded). */
export function useCurrentLocation(): CurrentLocation {
  const shown = useContext(ShownLocation);
  if (!shown) throw new Error('The location was read outside <AppLocation>.');
  return shown;
}

// wouter's location and search hooks, over the shown location.
const useShownPath = (): [string, Navigate] => [useCurrentLocation().pathname, browserNavigate];
const useShownSearch = () => useCurrentLocation().search;

/** A navigation to the address already shown replaces its history entry rather than adding a second one. */
const replaceSameAddress: AroundNavHandler = (navigate, to, options = {}) => {
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  navigate(to, { ...options, replace: options.replace ?? to === here });
};

/**
 * Routes below it read the browser's location through a deferred value: React renders a new location as a
 * transition, so a suspending page keeps the previous one on screen.
 */
export function AppLocation({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const search = useSearch();
  const hash = useLocationProperty(readHash);
  const state: unknown = useHistoryState();
  const current = useMemo(() => ({ pathname, search, hash, state }), [pathname, search, hash, state]);
  const shown = useDeferredValue(current);
  useScrollRestoration(shown.pathname, shown.hash);
  return (
    <ShownLocation value={shown}>
      <Router hook={useShownPath} searchHook={useShownSearch} aroundNav={replaceSameAddress}>
        {children}
      </Router>
    </ShownLocation>
  );
}

/** Goes to `to` (an absolute path), adding a history entry unless `replace`; `state` rides on the entry. */
export function useNavigate(): Navigate {
  return useLocation()[1];
}

type SearchParamsInit = ConstructorParameters<typeof URLSearchParams>[0];
type SetSearchParams = (
  next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
  options?: NavigateOptions,
) => void;

/** The shown query's parameters, and a setter that navigates to the same path with other ones. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { pathname, search } = useCurrentLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams: SetSearchParams = (next, options) => {
    const query = new URLSearchParams(typeof next === 'function' ? next(params) : next).toString();
    navigate(query ? `${pathname}?${query}` : pathname, options);
  };
  return [params, setParams];
}

/** Whether `to`'s path is the shown path or one of its descendants (letters in any case), as react-router's NavLink. */
function isCurrent(to: string, pathname: string): boolean {
  const target = (to.split(/[?#]/)[0] ?? '').replace(/\/+$/, '').toLowerCase();
  const here = pathname.toLowerCase();
  return here === target || here.startsWith(`${target}/`);
}

interface NavLinkProps {
  to: string;
  className?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  children: ReactNode;
}

/** A link that marks itself as the current page (`active` class, `aria-current="page"`) on its path and below it. */
export function NavLink({ to, className, onClick, children }: NavLinkProps) {
  const current = isCurrent(to, useCurrentLocation().pathname);
  return (
    <Link
      to={to}
      className={current ? [className, 'active'].filter(Boolean).join(' ') : className}
      aria-current={current ? 'page' : undefined}
      onClick={onClick}
    >
      {children}
    </Link>
  );
}
