import { Link, NavLink, useNavigate } from 'react-router-dom';
import { supportSite } from '../config/supportSite';
import { useT } from '../i18n/useT';
import { usePaths } from '../routing/usePaths';
import { useLang } from '../routing/useLang';
import { useAppStore } from '../store';
import { ExternalLink } from '../ui/ExternalLink';
import { LogoMark } from '../ui/Logo';
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

function AccountIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M4 21a8 8 0 0 1 16 0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** My Account: anonymous visitors go to the login page (the signed-in menu comes with the auth feature). */
function AccountButton() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  return (
    <button type="button" className="account-button" onClick={() => navigate(paths.login())}>
      <AccountIcon />
      <span className="account-button__label">{t.header.myAccount}</span>
    </button>
  );
}

export function Header() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigationOpen = useAppStore((s) => s.navigationMenuOpen);
  const toggleNavigation = useAppStore((s) => s.toggleNavigationMenu);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <button
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
          id={NAVIGATION_ID}
          aria-label={t.header.mainNavigation}
          className={navigationOpen ? 'site-nav site-nav--open' : 'site-nav'}
        >
          <ul className="site-nav__list">
            <li>
              <NavLink to={paths.purchase()} className="site-nav__link">
                {t.header.purchase}
              </NavLink>
            </li>
            <li>
              <ExternalLink href={supportSite.helpCenter(lang)} className="site-nav__link">
                {t.header.helpCenter}
              </ExternalLink>
            </li>
            <li>
              <ExternalLink href={supportSite.reportBug(lang)} className="site-nav__link">
                {t.header.reportBug}
              </ExternalLink>
            </li>
          </ul>
        </nav>

        <AccountButton />
      </div>
    </header>
  );
}
