import { useId, useRef, useState, type RefObject } from 'react';
import { Link } from 'wouter';
import { APP_PLATFORMS, useAppDownloads, type AppPlatform } from '../../config/useAppDownloads';
import { format } from '../../i18n/catalogues';
import { useShellT } from '../../i18n/useT';
import { NavLink, useCurrentLocation, useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import type { ReturnState } from '../../session/navigation';
import { SessionKeeper } from '../../session/SessionKeeper';
import { useLogout } from '../../session/useLogout';
import { useAppStore } from '../../store';
import { useMenuTrap } from '../../ui/useMenuTrap';
import './AccountMenu.css';

function AccountIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M4 21a8 8 0 0 1 16 0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** Each menu product's entry on the home page (`#product-{code}`). */
const HOME_ENTRIES: Record<AppPlatform, string> = { android: 'uncea', ios: 'uncei', mac: 'uncem', windows: 'uncpw' };

/** The signed-in user's menu: product dropdown, account settings, licences, purchase history, logout. */
function UserMenu({ id, email, menuRef }: { id: string; email: string; menuRef: RefObject<HTMLDivElement | null> }) {
  const t = useShellT();
  const paths = usePaths();
  const logout = useLogout();
  const closeMenus = useAppStore((s) => s.closeMenus);
  const [productsOpen, setProductsOpen] = useState(false);
  const downloads = useAppDownloads();
  const productsId = useId();

  return (
    <div ref={menuRef} id={id} className="user-menu" role="region" aria-label={t.menu.label}>
      <p className="user-menu__email">{format(t.menu.signedInAs, { email })}</p>
      <button
        type="button"
        className="user-menu__item user-menu__products-toggle"
        aria-expanded={productsOpen}
        aria-controls={productsId}
        onClick={() => setProductsOpen((open) => !open)}
      >
        {t.menu.products}
        <span aria-hidden="true">{productsOpen ? '▴' : '▾'}</span>
      </button>
      {productsOpen && (
        <ul id={productsId} className="user-menu__products">
          {/* Each product leads to its own app's download (APP_DOWNLOAD_*_URL); before the addresses are read, or
              where one is not configured, to its entry on the home page (issue 29, finding 11). */}
          {APP_PLATFORMS.map((platform) => (
            <li key={platform}>
              {downloads?.[platform] ? (
                <a
                  className="user-menu__item"
                  href={downloads[platform]}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-platform={platform}
                  onClick={closeMenus}
                >
                  {t.menu.productNames[platform]}
                </a>
              ) : (
                <Link
                  className="user-menu__item"
                  to={`${paths.home()}#product-${HOME_ENTRIES[platform]}`}
                  onClick={closeMenus}
                >
                  {t.menu.productNames[platform]}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      <ul className="user-menu__list">
        <li>
          <NavLink className="user-menu__item" to={paths.account()} onClick={closeMenus}>
            {t.menu.accountSettings}
          </NavLink>
        </li>
        <li>
          <NavLink className="user-menu__item" to={paths.license()} onClick={closeMenus}>
            {t.menu.licenses}
          </NavLink>
        </li>
        <li>
          <NavLink className="user-menu__item" to={paths.purchaseHistory()} onClick={closeMenus}>
            {t.menu.purchaseHistory}
          </NavLink>
        </li>
        <li>
          <button
            type="button"
            className="user-menu__item"
            onClick={() => {
              closeMenus();
              void logout();
            }}
          >
            {t.menu.logout}
          </button>
        </li>
      </ul>
    </div>
  );
}

/**
 * My Account in the header (spec section 2): anonymous visitors go to login; a logged-in user gets
 * the user menu. Also keeps the session (renewal and cookie checks) while the layout is shown.
 */
export function AccountMenu() {
  const t = useShellT();
  const paths = usePaths();
  const navigate = useNavigate();
  const { pathname, search } = useCurrentLocation();
  const user = useAppStore((s) => s.user);
  const open = useAppStore((s) => s.userMenuOpen);
  const toggle = useAppStore((s) => s.toggleUserMenu);
  const closeMenus = useAppStore((s) => s.closeMenus);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useMenuTrap(open && !!user, button, menu, closeMenus);

  return (
    <div className="account-menu">
      <SessionKeeper />
      {user ? (
        <>
          <button
            ref={button}
            type="button"
            className="account-button"
            aria-expanded={open}
            aria-controls={menuId}
            onClick={toggle}
          >
            <AccountIcon />
            <span className="account-button__label">{t.header.myAccount}</span>
          </button>
          {open && <UserMenu id={menuId} email={user.email} menuRef={menu} />}
        </>
      ) : (
        <button
          type="button"
          className="account-button"
          onClick={() => navigate(paths.login(), { state: { from: `${pathname}${search}` } satisfies ReturnState })}
        >
          <AccountIcon />
          <span className="account-button__label">{t.header.myAccount}</span>
        </button>
      )}
    </div>
  );
}
