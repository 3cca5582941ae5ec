import { useRef } from 'react';
import { Link } from 'wouter';
import { supportSite } from '../config/supportSite';
import { AccountMenu } from '../features/account/AccountMenu';
import { useShellT } from '../i18n/useT';
import { NavLink } from '../routing/location';
import { usePaths } from '../routing/usePaths';
import { useLang } from '../routing/useLang';
import { useAppStore } from '../store';
import { ExternalLink } from '../ui/ExternalLink';
import { LogoMark } from '../ui/Logo';
import { NewTag } from '../ui/NewTag';
import { useMenuTrap } from '../ui/useMenuTrap';
import { NEW_TAGS } from './navigation';
import './Header.css';

const NAVIGATION_ID = 'site-navigation';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

export function Header() {
  const t = useShellT();
  const lang = useLang();
  const paths = usePaths();
  const navigationOpen = useAppStore((s) => s.navigationMenuOpen);
  const toggleNavigation = useAppStore((s) => s.toggleNavigationMenu);
  const closeMenus = useAppStore((s) => s.closeMenus);
  const toggleButton = useRef<HTMLButtonElement>(null);
  const navigation = useRef<HTMLElement>(null);
  useMenuTrap(navigationOpen, toggleButton, navigation, closeMenus);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <button
          ref={toggleButton}
          type="button"
          className="site-header__menu-toggle"
          aria-expanded={navigationOpen}
          aria-controls={NAVIGATION_ID}
          aria-label={navigationOpen ? t.header.closeMenu : t.header.openMenu}
          onClick={toggleNavigation}
        >
          <MenuIcon open={navigationOpen} />
        </button>

        <Link to={paths.home()} className="site-header__logo" aria-label={t.header.homeLabel}>
          <LogoMark />
          <span className="site-header__brand">{t.meta.brand}</span>
        </Link>

        <nav
          ref={navigation}
          id={NAVIGATION_ID}
          aria-label={t.header.mainNavigation}
          className={navigationOpen ? 'site-nav site-nav--open' : 'site-nav'}
        >
          <ul className="site-nav__list">
            <li>
              <NavLink to={paths.purchase()} className="site-nav__link">
                {t.header.purchase}
                {NEW_TAGS.purchase && <NewTag />}
              </NavLink>
            </li>
            <li>
              <ExternalLink href={supportSite.helpCenter(lang)} className="site-nav__link">
                {t.header.helpCenter}
                {NEW_TAGS.helpCenter && <NewTag />}
              </ExternalLink>
            </li>
            <li>
              <ExternalLink href={supportSite.reportBug(lang)} className="site-nav__link">
                {t.header.reportBug}
                {NEW_TAGS.reportBug && <NewTag />}
              </ExternalLink>
            </li>
          </ul>
        </nav>

        <AccountMenu />
      </div>
    </header>
  );
}
