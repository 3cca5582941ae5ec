import { useMemo } from 'react';
import { useCurrentLocation } from './location';
import { bindPaths, type BoundPaths } from './paths';
import { useLang } from './useLang';

/** Path builders bound to the URL's language and carrying the current coupon code. */
export function usePaths(): BoundPaths {
  const lang = useLang();
  const { search } = useCurrentLocation();
  return useMemo(() => bindPaths({ lang, search }), [lang, search]);
}
