import { isValidElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import HomePage from '../features/home/HomePage';
import { AppLayout } from '../layout/AppLayout';
import { loadCatalogue } from '../i18n/catalogues';
import { LanguageGate } from '../routing/LanguageGate';
import { LanguageRedirect } from '../routing/LanguageRedirect';
import { routePatterns } from '../routing/paths';
import { languageOfPath, readBrowserLanguageHints } from '../routing/preferredLanguage';

/** A page whose code loads when it is first shown; `preload` starts that load sooner. */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/** The catalogue's pages part in the current address's language; a failure is left to useT, which asks again. */
function loadPageTexts(): Promise<unknown> {
  return loadCatalogue(languageOfPath(window.location.pathname, readBrowserLanguageHints())).catch(() => undefined);
}

/**
 * A page's code and its texts (the catalogue's pages part) load side by side, and the page renders once both are
 * there, so its first render finds the texts loaded rather than suspending again on them.
 */
function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  const loadWithTexts = () => Promise.all([load(), loadPageTexts()]).then(([page]) => page);
  return Object.assign(lazy(loadWithTexts), { preload: loadWithTexts });
}

const PurchasePage = lazyPage(() => import('../features/purchase/PurchasePage'));
const LoginPage = lazyPage(() => import('../features/auth/LoginPage'));
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage'));
const RegisterAuthPage = lazyPage(() => import('../features/auth/RegisterAuthPage'));
const RegisterConfirmPage = lazyPage(() => import('../features/auth/RegisterConfirmPage'));
const EmailAuthPage = lazyPage(() => import('../features/auth/EmailAuthPage'));
const PasswordFindPage = lazyPage(() => import('../features/auth/PasswordFindPage'));
const PasswordFindAuthPage = lazyPage(() => import('../features/auth/PasswordFindAuthPage'));
const PasswordResetPage = lazyPage(() => import('../features/auth/PasswordResetPage'));
const PasswordResetConfirmPage = lazyPage(() => import('../features/auth/PasswordResetConfirmPage'));
const AccountSettingsPage = lazyPage(() => import('../features/account/AccountSettingsPage'));
const AccountDeletePage = lazyPage(() => import('../features/account/AccountDeletePage'));
const AccountDeleteConfirmPage = lazyPage(() => import('../features/account/AccountDeleteConfirmPage'));
const EmailChangeConfirmPage = lazyPage(() => import('../features/account/EmailChangeConfirmPage'));
const PurchaseHistoryPage = lazyPage(() => import('../features/payments/PurchaseHistoryPage'));
const PaymentDetailPage = lazyPage(() => import('../features/payments/PaymentDetailPage'));
const LicensePage = lazyPage(() => import('../features/licences/LicensePage'));
const LicenseDetailPage = lazyPage(() => import('./LicenseDetailRoute'));
const LicenseUpgradePage = lazyPage(() => import('../features/upgrades/UpgradePage'));
const PaymentConfirmPage = lazyPage(() => import('../features/purchase/PaymentConfirmPage'));
const PaymentFailurePage = lazyPage(() => import('../features/purchase/PaymentFailurePage'));
const PrivacyPolicyPage = lazyPage(() => import('../features/terms/PrivacyPolicyPage'));
const TermsPage = lazyPage(() => import('../features/terms/TermsPage'));
const LifetimePolicyPage = lazyPage(() => import('../features/terms/LifetimePolicyPage'));
const SubscriptionPolicyPage = lazyPage(() => import('../features/terms/SubscriptionPolicyPage'));
const ReleaseNotesPage = lazyPage(() => import('../features/release-notes/ReleaseNotesPage'));
const ReportPage = lazyPage(() => import('../features/reports/ReportPage'));
const AccountNamePage = lazyPage(() => import('../features/account/AccountNamePage'));
const SsoZendeskPage = lazyPage(() => import('../features/support/SsoZendeskPage'));
const NotFoundPage = lazyPage(() => import('./NotFoundPage'));

/**
 * Every page lives under /:lang. `/` and any path whose first segment is not a language are
 * redirected by LanguageGate / LanguageRedirect to the same path with a language prefix.
 */
export const routes: RouteObject[] = [
  { path: '/', element: <LanguageRedirect /> },
  {
    path: '/:lang',
    element: <LanguageGate />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <HomePage /> },
          { path: routePatterns.purchase, element: <PurchasePage /> },
          { path: routePatterns.login, element: <LoginPage /> },
          { path: routePatterns.register, element: <RegisterPage /> },
          { path: routePatterns.registerAuth, element: <RegisterAuthPage /> },
          { path: routePatterns.registerConfirm, element: <RegisterConfirmPage /> },
          { path: routePatterns.emailAuth, element: <EmailAuthPage /> },
          { path: routePatterns.passwordFind, element: <PasswordFindPage /> },
          { path: routePatterns.passwordFindAuth, element: <PasswordFindAuthPage /> },
          { path: routePatterns.passwordReset, element: <PasswordResetPage /> },
          { path: routePatterns.passwordResetConfirm, element: <PasswordResetConfirmPage /> },
          { path: routePatterns.account, element: <AccountSettingsPage /> },
          { path: routePatterns.accountDelete, element: <AccountDeletePage /> },
          { path: routePatterns.accountDeleteConfirm, element: <AccountDeleteConfirmPage /> },
          { path: routePatterns.emailChangeConfirm, element: <EmailChangeConfirmPage /> },
          { path: routePatterns.purchaseHistory, element: <PurchaseHistoryPage /> },
          { path: routePatterns.license, element: <LicensePage /> },
          { path: routePatterns.purchaseHistoryDetail, element: <PaymentDetailPage /> },
          { path: routePatterns.licenseDetail, element: <LicenseDetailPage /> },
          { path: routePatterns.licenseUpgrade, element: <LicenseUpgradePage /> },
          { path: routePatterns.paymentConfirm, element: <PaymentConfirmPage /> },
          { path: routePatterns.paymentFailure, element: <PaymentFailurePage /> },
          { path: routePatterns.privacyPolicy, element: <PrivacyPolicyPage /> },
          { path: routePatterns.terms, element: <TermsPage /> },
          { path: routePatterns.lifetimePolicy, element: <LifetimePolicyPage /> },
          { path: routePatterns.subscriptionPolicy, element: <SubscriptionPolicyPage /> },
          { path: routePatterns.releaseNotes, element: <ReleaseNotesPage /> },
          { path: routePatterns.report, element: <ReportPage /> },
          { path: routePatterns.accountName, element: <AccountNamePage /> },
          { path: routePatterns.ssoZendesk, element: <SsoZendeskPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/** The lazily loaded page shown at `pathname`, if the page there is one. */
export function lazyPageAt(pathname: string): LazyPage | undefined {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const { element } = match.route;
    if (isValidElement(element) && typeof (element.type as Partial<LazyPage>).preload === 'function') {
      return element.type as LazyPage;
    }
  }
  return undefined;
}
