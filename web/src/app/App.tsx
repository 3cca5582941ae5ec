import { BrowserRouter, useRoutes } from 'react-router-dom';
import { routes } from './routes';

/** The page for the current URL, from the route table. */
function RoutedPage() {
  return useRoutes(routes);
}

/**
 * The app under react-router's declarative router. The pages use no loaders or actions, and the data router
 * (`createBrowserRouter`) would add 18 kB gzip to the initial JavaScript (README, "Performance").
 */
export function App() {
  return (
    <BrowserRouter>
      <RoutedPage />
    </BrowserRouter>
  );
}
