import { useStore } from 'zustand';
import { devtools } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import type { AppState } from './types';
import { createSessionSlice } from '../session/sessionSlice';
import { createUiSlice } from './uiSlice';

export type { AppState } from './types';

/** A fresh store; tests make their own, the app uses `appStore`. */
export function createAppStore() {
  return createStore<AppState>()(
    devtools(
      (...args) => ({
        ...createUiSlice(...args),
        ...createSessionSlice(...args),
      }),
      { name: 'unicornpro', enabled: import.meta.env.DEV },
    ),
  );
}

export type AppStore = ReturnType<typeof createAppStore>;

export const appStore: AppStore = createAppStore();

/** Selects from the app store: `const open = useAppStore((s) => s.navigationMenuOpen)`. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}
