import { useCallback, useEffect, useState } from 'react';
import { getAccessToken } from './session';
import { appStore } from '../store';
import { isSilentLoadError, toFeatureError, type FeatureError } from '../errors/featureError';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'failed'; error: FeatureError };

/**
 * Loads data with the user's access token. A 401 or 403 is silent (spec section 6): the state
 * stays `loading`. Other failures are handed to `onError` once and end in `failed`.
 */
export function useBearerLoad<T>(
  load: (token: string | null) => Promise<T>,
  onError: (error: FeatureError) => void,
  key: string,
): { state: LoadState<T>; reload: () => void; setData: (data: T) => void } {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const token = await getAccessToken(appStore);
        const data = await load(token);
        if (live) setState({ status: 'ready', data });
      } catch (error) {
        if (!live) return;
        const failure = toFeatureError(error);
        if (isSilentLoadError(failure)) return;
        setState({ status: 'failed', error: failure });
        onError(failure);
      }
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `load` and `onError` are re-created by every render; the key and the round say when to load.
  }, [key, round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  const setData = useCallback((data: T) => setState({ status: 'ready', data }), []);
  return { state, reload, setData };
}
