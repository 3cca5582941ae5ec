import { AppLocation } from '../routing/location';
import { AppRoutes } from './routes';

/** The app: the route table over the browser's location, each navigation rendered as a transition. */
export function App() {
  return (
    <AppLocation>
      <AppRoutes />
    </AppLocation>
  );
}
