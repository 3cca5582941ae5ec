import { useEffect, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useCurrentLocation } from '../routing/location';
import { usePaths } from '../routing/usePaths';
import { appStore, useAppStore } from '../store';
import { PageLoading } from '../ui/PageLoading';
import { enterGuardedPage } from './guard';
import type { ReturnState } from './navigation';
import { checkSession } from './session';

/**
 * A page needing scope `min` (default 1): logged-out visitors go to login with the page to return
 * to; a logged-in user with a lower scope (email not confirmed) goes to register/auth.
 */
export function RequireScope({ min = 1, children }: { min?: number; children: ReactNode }) {
  const user = useAppStore((s) => s.user);
  const checked = useAppStore((s) => s.sessionChecked);
  const { pathname, search } = useCurrentLocation();
  const paths = usePaths();

  useEffect(() => enterGuardedPage(), []);
  useEffect(() => {
    if (!checked) void checkSession(appStore);
  }, [checked]);

  if (!checked) return <PageLoading />;
  if (!user) {
    const state: ReturnState = { from: `${pathname}${search}` };
    return <Redirect replace to={paths.login()} state={state} />;
  }
  if (user.scope < min) return <Redirect replace to={paths.registerAuth()} />;
  return <>{children}</>;
}

/** A page that needs a logged-in user of any scope (register/auth). */
export function RequireUser({ children }: { children: ReactNode }) {
  return <RequireScope min={0}>{children}</RequireScope>;
}
