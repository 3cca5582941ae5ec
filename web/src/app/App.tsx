import { BrowserRouter, useRoutes } from '../routing/router';
import { routes } from './routes';

/** The page for the current URL, from the route table. */
function RoutedPage() {
  return useRoutes(routes);
}

/**
 * The app under its own small router (`routing/router.tsx`): react-router's declarative router cost 14 kB gzip of
 * the initial JavaScript, its data router 32 (README, "Performance").
 */
export function App() {
  return (
    <BrowserRouter>
      <RoutedPage />
    </BrowserRouter>
  );
}
