import { beforeEach, describe, expect, it } from 'vitest';
import { createAppStore, type AppStore } from './index';

describe('UI slice: menus and dimmer', () => {
  let store: AppStore;
  const state = () => store.getState();

  beforeEach(() => {
    store = createAppStore();
  });

  it('starts with everything closed', () => {
    expect(state()).toMatchObject({ navigationMenuOpen: false, userMenuOpen: false, dimmer: false });
  });

  it('opening the navigation menu closes the user menu and turns the dimmer on', () => {
    state().openUserMenu();
    expect(state()).toMatchObject({ userMenuOpen: true, dimmer: true });

    state().openNavigationMenu();
    expect(state()).toMatchObject({ navigationMenuOpen: true, userMenuOpen: false, dimmer: true });
  });

  it('toggling the navigation menu twice closes it and the dimmer', () => {
    state().toggleNavigationMenu();
    expect(state()).toMatchObject({ navigationMenuOpen: true, dimmer: true });
    state().toggleNavigationMenu();
    expect(state()).toMatchObject({ navigationMenuOpen: false, userMenuOpen: false, dimmer: false });
  });

  it('toggling the navigation menu open also closes an open user menu', () => {
    state().toggleUserMenu();
    state().toggleNavigationMenu();
    expect(state()).toMatchObject({ navigationMenuOpen: true, userMenuOpen: false, dimmer: true });
  });

  it('opening the user menu closes the navigation menu, keeping one overlay at a time', () => {
    state().openNavigationMenu();
    state().toggleUserMenu();
    expect(state()).toMatchObject({ navigationMenuOpen: false, userMenuOpen: true, dimmer: true });
  });

  it('closeMenus closes both menus and the dimmer', () => {
    state().openNavigationMenu();
    state().closeMenus();
    expect(state()).toMatchObject({ navigationMenuOpen: false, userMenuOpen: false, dimmer: false });
  });
});
