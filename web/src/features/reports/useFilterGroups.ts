/** The filter groups of the chosen app: fetched for a Pro app, the local defaults for a basic one. */
import { useEffect, useState } from 'react';
import { toFeatureError, type FeatureError } from '../../errors/featureError';
import { fetchFilterGroups, type FilterGroup } from './api';
import { groupsFromServer, localGroups } from './filters';
import { isReportProduct } from './products';

export interface FilterGroupsState {
  status: 'none' | 'request' | 'success' | 'failure';
  groups: FilterGroup[];
  error?: FeatureError;
}

export function useFilterGroups(product: string): FilterGroupsState {
  const [state, setState] = useState<FilterGroupsState>({ status: 'none', groups: [] });
  useEffect(() => {
    if (!isReportProduct(product)) {
      setState({ status: 'none', groups: [] });
      return undefined;
    }
    if (!groupsFromServer(product)) {
      setState({ status: 'success', groups: localGroups(product) });
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: 'request', groups: [] });
    fetchFilterGroups(product, controller.signal).then(
      (groups) => setState({ status: 'success', groups }),
      (failure: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failure', groups: [], error: toFeatureError(failure) });
      },
    );
    return () => controller.abort();
  }, [product]);
  return state;
}
