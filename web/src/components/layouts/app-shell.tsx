import { useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { MenuIcon, UserIcon } from '@/components/icons/icons';
import { BrandLink } from '@/components/ui/brand-link';
import { LinkButton } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { env } from '@/config/env';
import { signOut, useAccountKind } from '@/lib/session';
import { selectedDependent } from '@/lib/storage';
import { MOBILE_QUERY, useIsMobile } from '@/lib/use-media-query';
import { pageTitle, useRouteMeta } from './route-meta';
import { SkipLinksProvider, skipTo, useSkipLinkSlot } from './skip-links';
import styles from './app-shell.module.css';

const NAV_ITEMS = [
  { to: paths.home.path, label: 'Home' },
  { to: paths.marketplace.path, label: 'Marketplace' },
  { to: paths.account.path, label: 'Account' },
];

/** A DPC provider's side bar and drawer. */
const PROVIDER_NAV_ITEMS = [
  { to: paths.providerMembers.path, label: 'Members' },
  { to: paths.providerSolutions.path, label: 'Solutions' },
  { to: paths.providerListings.path, label: 'Listings' },
  { to: paths.providerRates.path, label: 'Rates' },
  { to: paths.providerSettings.path, label: 'Settings' },
];

/** Navigating through the menu acts on the signed-in member again (the spec clears the selected dependent). */
function clearSelectedMember() {
  selectedDependent.set(null);
}

/** Reloads the page when the width crosses the 600 px mobile breakpoint, as the spec asks. */
function useReloadOnBreakpointCross() {
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(MOBILE_QUERY);
    const onChange = () => window.location.reload();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
}

/** A new page (a link followed, not Back) starts at the top; a query change on the same page keeps the scroll. */
function useScrollToTopOnNewPage() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'POP' && typeof window.scrollTo === 'function') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}

/**
 * The frame around every page: the public header (signed out) or the member header (signed in),
 * the 225 px side bar on wide screens and the drawer under 600 px, and the page title.
 * `memberMenu` is the signed-in avatar menu, composed by the app from the accounts feature.
 */
export function AppShell({ memberMenu }: { memberMenu?: ReactNode }) {
  const meta = useRouteMeta();
  const account = useAccountKind();
  const signedIn = account !== null;
  const navItems = account === 'provider' ? PROVIDER_NAV_ITEMS : NAV_ITEMS;
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [skipLink, setSkipLink] = useSkipLinkSlot();
  useReloadOnBreakpointCross();
  useScrollToTopOnNewPage();

  useEffect(() => {
    document.title = pageTitle(meta.name);
  }, [meta.name]);

  const bareRoute = Boolean(meta.auth || meta.onboarding);
  const showPublicHeader = !signedIn && !bareRoute;
  const showMemberHeader = signedIn && !bareRoute;
  const showSidebar = signedIn && !isMobile && !bareRoute && !meta.hideSidebar;

  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      {skipLink ? (
        <a
          className={styles.skip}
          href={`#${skipLink.targetId}`}
          onClick={(event) => {
            event.preventDefault();
            skipTo(skipLink.targetId);
          }}
        >
          {skipLink.label}
        </a>
      ) : null}
      {showPublicHeader ? (
        <header className={styles.header}>
          <Brand />
          <nav className={styles.headerActions} aria-label="Account">
            <LinkButton to={paths.login.path} variant="ghost" size={isMobile ? 'sm' : 'md'}>
              Login
            </LinkButton>
            <LinkButton to={paths.register.path} size={isMobile ? 'sm' : 'md'}>
              Get Started
            </LinkButton>
          </nav>
        </header>
      ) : null}
      {showMemberHeader ? (
        <header className={styles.header}>
          {isMobile ? (
            <button type="button" className={styles.iconButton} aria-label="Open menu" onClick={() => setDrawerOpen(true)}>
              <MenuIcon />
            </button>
          ) : null}
          <Brand />
          {memberMenu ?? <MemberMenu />}
        </header>
      ) : null}
      <div className={styles.body}>
        {showSidebar ? (
          <nav className={styles.sidebar} aria-label="Main">
            <ul>
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className={({ isActive }) => `${styles.navLink} ${isActive ? styles.navActive : ''}`} onClick={clearSelectedMember}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <main id="main" className={styles.main} tabIndex={-1}>
          <SkipLinksProvider set={setSkipLink}>
            <Outlet />
          </SkipLinksProvider>
        </main>
      </div>
      {showPublicHeader ? <PublicFooter /> : null}
      {signedIn && isMobile ? (
        <Dialog open={drawerOpen} title="Menu" placement="sheet" onClose={() => setDrawerOpen(false)}>
          <ul className={styles.drawerList}>
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={styles.drawerLink}
                  onClick={() => {
                    clearSelectedMember();
                    setDrawerOpen(false);
                  }}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className={styles.drawerLink} onClick={signOut}>
                Sign Out
              </button>
            </li>
          </ul>
        </Dialog>
      ) : null}
    </div>
  );
}

function Brand() {
  return <BrandLink className={styles.brand} size={28} />;
}

/** A bare avatar menu, used when the app gives no member menu (tests of the shell alone). */
function MemberMenu() {
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.memberMenu}>
      <button type="button" className={styles.avatar} aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <UserIcon />
        <span className="visually-hidden">Account menu</span>
      </button>
      {open ? (
        <ul className={styles.menu} aria-label="Account">
          <li>
            <Link to={paths.addFamilyMember.path} className={styles.menuItem} onClick={() => setOpen(false)}>
              Add a family member
            </Link>
          </li>
          <li>
            <button type="button" className={styles.menuItem} onClick={signOut}>
              Sign Out
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

function PublicFooter() {
  return (
    <footer className={styles.footer}>
      <p>
        Questions? Write to <a href={`mailto:${env.supportEmail}`}>{env.supportEmail}</a>
      </p>
      <nav aria-label="Legal" className={styles.footerLinks}>
        <Link to={paths.privacy.path}>Privacy Policy</Link>
        <Link to={paths.cookies.path}>Cookie Policy</Link>
        <Link to={paths.terms.path}>Terms of Use</Link>
      </nav>
    </footer>
  );
}
