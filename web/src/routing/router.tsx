/**
 * The app's router: the part of react-router's API the app uses (BrowserRouter, useRoutes, Link, NavLink,
 * Navigate, Outlet, the location, params and search hooks; createMemoryRouter and RouterProvider for tests), in
 * about 2 kB gzip instead of react-router's 14 (README, "Performance"). Navigations are React transitions, as in
 * react-router: a page that suspends (its code, its catalogue part) leaves the page shown in place until it is ready.
 */
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

export interface RouteObject {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: RouteObject[];
}

export interface RouteMatch {
  route: RouteObject;
  params: Record<string, string | undefined>;
  pathname: string;
}

/** Where the router keeps its entries: the browser's history, or a list in memory (tests). */
interface History {
  location(): Location;
  go(delta: number): void;
  write(location: Location, replace: boolean): void;
  listen(onPop: () => void): () => void;
}

let keys = 0;
const nextKey = () => (++keys).toString(36);

/** Splits `/a/b?c=d#e` into a location's parts (relative paths are not used by the app: they resolve from `/`). */
function parse(to: string, state: unknown): Location {
  const url = new URL(to, 'http://x/');
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key: nextKey() };
}

function hrefOf(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

function browserHistory(): History {
  const read = (): Location => {
    const saved = (window.history.state ?? {}) as { usr?: unknown; key?: string };
    const { pathname, search, hash } = window.location;
    return { pathname, search, hash, state: saved.usr ?? null, key: saved.key ?? 'default' };
  };
  return {
    location: read,
    go: (delta) => window.history.go(delta),
    write(location, replace) {
      const entry = { usr: location.state, key: location.key };
      if (replace) window.history.replaceState(entry, '', hrefOf(location));
      else window.history.pushState(entry, '', hrefOf(location));
    },
    listen(onPop) {
      window.addEventListener('popstate', onPop);
      return () => window.removeEventListener('popstate', onPop);
    },
  };
}

interface RouterState {
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterState | null>(null);

interface RouteState {
  params: Record<string, string | undefined>;
  outlet: ReactNode;
}

const RouteContext = createContext<RouteState>({ params: {}, outlet: null });

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A router hook was used outside the router.');
  return router;
}

/** The navigate function over `history`, each change of location a transition. */
function navigatorOf(history: History, setLocation: (location: Location) => void): NavigateFunction {
  return (to, options = {}) => {
    if (typeof to === 'number') {
      history.go(to);
      return;
    }
    const location = parse(to, options.state ?? null);
    history.write(location, options.replace ?? false);
    startTransition(() => setLocation(location));
  };
}

/** The router over the browser's address bar and history. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const history = useMemo(browserHistory, []);
  const [location, setLocation] = useState(history.location);
  useEffect(() => history.listen(() => startTransition(() => setLocation(history.location()))), [history]);
  const navigate = useMemo(() => navigatorOf(history, setLocation), [history]);
  const router = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext value={router}>{children}</RouterContext>;
}

// Route matching, ranked as react-router ranks it: static segments before dynamic ones before a splat, so
// `payment/confirm` wins over `payment/:licenseId` whatever their order.

interface Branch {
  routes: RouteObject[];
  pattern: string[];
  score: number;
  order: number;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function flatten(routes: RouteObject[], parents: RouteObject[] = [], pattern: string[] = [], found: Branch[] = []) {
  for (const route of routes) {
    const chain = [...parents, route];
    const full = [...pattern, ...segmentsOf(route.path ?? '')];
    if (route.children?.length) flatten(route.children, chain, full, found);
    if (route.path !== undefined || route.index) {
      const score = full.reduce(
        (total, segment) => total + (segment === '*' ? -2 : segment.startsWith(':') ? 3 : 10),
        full.length + (route.index ? 2 : 0),
      );
      found.push({ routes: chain, pattern: full, score, order: found.length });
    }
  }
  return found;
}

function matchBranch(branch: Branch, segments: string[]): Record<string, string | undefined> | null {
  const params: Record<string, string | undefined> = {};
  for (const [index, part] of branch.pattern.entries()) {
    if (part === '*') {
      params['*'] = segments.slice(index).map(decode).join('/');
      return params;
    }
    const segment = segments[index];
    if (segment === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = decode(segment);
    else if (part.toLowerCase() !== segment.toLowerCase()) return null;
  }
  return segments.length === branch.pattern.length ? params : null;
}

/** The chain of routes (outermost first) whose branch matches `pathname`, with its params; null if none does. */
export function matchRoutes(routes: RouteObject[], pathname: string): RouteMatch[] | null {
  const segments = segmentsOf(pathname);
  const branches = flatten(routes).sort((a, b) => b.score - a.score || a.order - b.order);
  for (const branch of branches) {
    const params = matchBranch(branch, segments);
    if (params) return branch.routes.map((route) => ({ route, params, pathname }));
  }
  return null;
}

/** The element of the route table matching the current location, nested routes rendered through `<Outlet />`. */
export function useRoutes(routes: RouteObject[]): ReactElement | null {
  const { pathname } = useRouter().location;
  const matches = useMemo(() => matchRoutes(routes, pathname), [routes, pathname]);
  if (!matches) return null;
  return matches.reduceRight<ReactElement | null>(
    (outlet, match) => (
      <RouteContext value={{ params: match.params, outlet }}>
        {match.route.element === undefined ? outlet : match.route.element}
      </RouteContext>
    ),
    null,
  );
}

/** Where a parent route shows its matching child. */
export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

export function useParams<Params extends string = string>(): Readonly<Partial<Record<Params, string>>> {
  return useContext(RouteContext).params as Partial<Record<Params, string>>;
}

type SearchUpdate = URLSearchParams | ((current: URLSearchParams) => URLSearchParams);

/** The query of the current location, and a setter that navigates to the same path with another query. */
export function useSearchParams(): [URLSearchParams, (next: SearchUpdate, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = (next: SearchUpdate, options?: NavigateOptions) => {
    const query = (typeof next === 'function' ? next(new URLSearchParams(location.search)) : next).toString();
    navigate(`${location.pathname}${query ? `?${query}` : ''}${location.hash}`, options);
  };
  return [params, set];
}

/** Navigates once mounted (a redirect while rendering). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace, state });
  }, [navigate, to, replace, state]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string } & NavigateOptions;

/** A link the router follows itself on a plain left click; other clicks (new tab, ...) are the browser's. */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain = event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
    if (event.defaultPrevented || !plain || (target && target !== '_self')) return;
    event.preventDefault();
    navigate(to, { replace, state });
  };
  return <a {...rest} href={to} target={target} onClick={follow} />;
}

/** A link that says it leads to the current page (`aria-current="page"`, class `active`) when it does. */
export function NavLink({ className, ...props }: LinkProps) {
  const { pathname } = useLocation();
  const target = parse(props.to, null).pathname.replace(/\/+$/, '') || '/';
  const current = pathname.replace(/\/+$/, '') || '/';
  const active = current === target || current.startsWith(`${target}/`);
  return (
    <Link
      {...props}
      className={[className, active ? 'active' : undefined].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}

// Tests: a router over a list of entries in memory.

type Entry = string | { pathname: string; search?: string; hash?: string; state?: unknown };

export interface MemoryRouter {
  routes: RouteObject[];
  readonly state: { location: Location };
  navigate(to: string | number, options?: NavigateOptions): Promise<void>;
  subscribe(listener: () => void): () => void;
}

/** A router over `initialEntries` in memory, shown by `<RouterProvider router={...} />` (tests). */
export function createMemoryRouter(
  routes: RouteObject[],
  { initialEntries = ['/'], initialIndex }: { initialEntries?: Entry[]; initialIndex?: number } = {},
): MemoryRouter {
  const entries = initialEntries.map((entry) =>
    typeof entry === 'string' ? parse(entry, null) : parse(hrefOf({ search: '', hash: '', ...entry }), entry.state ?? null),
  );
  let index = initialIndex ?? entries.length - 1;
  const listeners = new Set<() => void>();
  let state = { location: entries[index] as Location };
  const show = () => {
    state = { location: entries[index] as Location };
    for (const listener of listeners) listener();
  };
  const history: History = {
    location: () => state.location,
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      show();
    },
    write(location, replace) {
      if (replace) entries[index] = location;
      else entries.splice(++index, entries.length, location);
      state = { location };
    },
    listen: () => () => undefined,
  };
  const navigate = navigatorOf(history, () => show());
  return {
    routes,
    get state() {
      return state;
    },
    navigate: (to, options) => {
      navigate(to, options);
      return Promise.resolve();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function MemoryRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Shows a memory router's current entry (tests). */
export function RouterProvider({ router }: { router: MemoryRouter }) {
  const location = useSyncExternalStore(router.subscribe, () => router.state.location);
  const navigate = useMemo<NavigateFunction>(() => (to, options) => void router.navigate(to, options), [router]);
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return (
    <RouterContext value={value}>
      <MemoryRoutes routes={router.routes} />
    </RouterContext>
  );
}
