import type { AppSliceCreator } from './types';

/**
 * Menus and the dimmer of the layout (spec section 4, "Menu"): opening the navigation menu closes
 * the user menu and turns on the dimmer and modal mode; only one menu is open at a time.
 */
export interface UiSlice {
  navigationMenuOpen: boolean;
  userMenuOpen: boolean;
  /** Dimmer over the page, shown while an overlay menu is open (also means modal mode). */
  dimmer: boolean;
  openNavigationMenu: () => void;
  toggleNavigationMenu: () => void;
  openUserMenu: () => void;
  toggleUserMenu: () => void;
  closeMenus: () => void;
}

const closed = { navigationMenuOpen: false, userMenuOpen: false, dimmer: false } as const;

export const createUiSlice: AppSliceCreator<UiSlice> = (set, get) => ({
  ...closed,
  openNavigationMenu: () =>
    set({ navigationMenuOpen: true, userMenuOpen: false, dimmer: true }, undefined, 'ui/openNavigationMenu'),
  toggleNavigationMenu: () =>
    get().navigationMenuOpen ? get().closeMenus() : get().openNavigationMenu(),
  openUserMenu: () =>
    set({ userMenuOpen: true, navigationMenuOpen: false, dimmer: true }, undefined, 'ui/openUserMenu'),
  toggleUserMenu: () => (get().userMenuOpen ? get().closeMenus() : get().openUserMenu()),
  closeMenus: () => set({ ...closed }, undefined, 'ui/closeMenus'),
});
