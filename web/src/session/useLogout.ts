import { useCallback } from 'react';
import { DEFAULT_LANG } from '../i18n/languages';
import { useCurrentLocation, useNavigate } from '../routing/location';
import { matchBrowserLanguage, readBrowserLanguageHints } from '../routing/preferredLanguage';
import { usePaths } from '../routing/usePaths';
import { appStore } from '../store';
import { currentPageNeedsScope } from './guard';
import { afterLogoutPath } from './navigation';
import { logOut } from './session';

/** Logs out, then goes where spec section 4 says (login on guarded pages, else the same page). */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const { pathname, search } = useCurrentLocation();
  const paths = usePaths();
  return useCallback(async () => {
    const needsScope = currentPageNeedsScope();
    const login = paths.login();
    const current = `${pathname}${search}`;
    await logOut(appStore);
    const browserLanguage = matchBrowserLanguage(readBrowserLanguageHints().browserLanguages ?? []) ?? DEFAULT_LANG;
    navigate(afterLogoutPath({ current, needsScope, login, browserLanguage }), { replace: true });
  }, [navigate, pathname, search, paths]);
}
