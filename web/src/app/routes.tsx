import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { parse } from 'regexparam';
import { matchRoute, Route, Switch } from 'wouter';
import HomePage from '../features/home/HomePage';
import { AppLayout } from '../layout/AppLayout';
import { loadCatalogue } from '../i18n/catalogues';
import { LanguageGate } from '../routing/LanguageGate';
import { LanguageRedirect } from '../routing/LanguageRedirect';
import { useLang } from '../routing/useLang';
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
const RegisterClaimPage = lazyPage(() => import('../features/auth/RegisterClaimPage'));
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
const LicencePage = lazyPage(() => import('../features/licences/LicencePage'));
const LicenceDetailPage = lazyPage(() => import('./LicenceDetailRoute'));
const LicenceUpgradePage = lazyPage(() => import('../features/upgrades/UpgradePage'));
const PaymentConfirmPage = lazyPage(() => import('../features/purchase/PaymentConfirmPage'));
const PaymentFailurePage = lazyPage(() => import('../features/purchase/PaymentFailurePage'));
const PrivacyPolicyPage = lazyPage(() => import('../features/terms/PrivacyPolicyPage'));
const TermsPage = lazyPage(() => import('../features/terms/TermsPage'));
const LifetimePolicyPage = lazyPage(() => import('../features/terms/LifetimePolicyPage'));
const SubscriptionPolicyPage = lazyPage(() => import('../features/terms/SubscriptionPolicyPage'));
const TokushohoPage = lazyPage(() => import('../features/legal/TokushohoPage'));
const ReleaseNotesPage = lazyPage(() => import('../features/release-notes/ReleaseNotesPage'));
const ReportPage = lazyPage(() => import('../features/reports/ReportPage'));
const AccountNamePage = lazyPage(() => import('../features/account/AccountNamePage'));
const SsoZendeskPage = lazyPage(() => import('../features/support/SsoZendeskPage'));
const NotFoundPage = lazyPage(() => import('./NotFoundPage'));

/** The pages under /:lang, by their path after the language. The first that matches is shown, so a fixed path
 * comes before a parameter in the same place (`payment/confirm` before `payment/:licenseId`). */
const pages: readonly [pattern: string, Page: ComponentType][] = [
  ['', HomePage],
  [routePatterns.purchase, PurchasePage],
  [routePatterns.login, LoginPage],
  [routePatterns.register, RegisterPage],
  [routePatterns.registerAuth, RegisterAuthPage],
  [routePatterns.registerClaim, RegisterClaimPage],
  [routePatterns.registerConfirm, RegisterConfirmPage],
  [routePatterns.emailAuth, EmailAuthPage],
  [routePatterns.passwordFind, PasswordFindPage],
  [routePatterns.passwordFindAuth, PasswordFindAuthPage],
  [routePatterns.passwordReset, PasswordResetPage],
  [routePatterns.passwordResetConfirm, PasswordResetConfirmPage],
  [routePatterns.account, AccountSettingsPage],
  [routePatterns.accountDelete, AccountDeletePage],
  [routePatterns.accountDeleteConfirm, AccountDeleteConfirmPage],
  [routePatterns.emailChangeConfirm, EmailChangeConfirmPage],
  [routePatterns.purchaseHistory, PurchaseHistoryPage],
  [routePatterns.license, LicencePage],
  [routePatterns.purchaseHistoryDetail, PaymentDetailPage],
  [routePatterns.licenseDetail, LicenceDetailPage],
  [routePatterns.licenseUpgrade, LicenceUpgradePage],
  [routePatterns.paymentConfirm, PaymentConfirmPage],
  [routePatterns.paymentFailure, PaymentFailurePage],
  [routePatterns.privacyPolicy, PrivacyPolicyPage],
  [routePatterns.terms, TermsPage],
  [routePatterns.lifetimePolicy, LifetimePolicyPage],
  [routePatterns.subscriptionPolicy, SubscriptionPolicyPage],
  [routePatterns.tokushoho, TokushohoPage],
  [routePatterns.releaseNotes, ReleaseNotesPage],
  [routePatterns.report, ReportPage],
  [routePatterns.accountName, AccountNamePage],
  [routePatterns.ssoZendesk, SsoZendeskPage],
];

/** Any path with a first segment: LanguageGate checks that it is a language. */
const UNDER_A_LANGUAGE = '/:lang/*?';

const fullPattern = (pattern: string) => (pattern ? `/:lang/${pattern}` : '/:lang');

/**
 * The page of the address. Keyed by the language: switching language starts the page afresh, so nothing it said in
 * the old language stays (issue 29, finding 16: a status line kept its English after a switch to Korean), and what
 * the server words by language (plan names) is read again.
 */
function PageSwitch() {
  const lang = useLang();
  return (
    <Switch key={lang}>
      {pages.map(([pattern, Page]) => (
        <Route key={pattern} path={fullPattern(pattern)}>
          <Page />
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

/**
 * The route table. Every page lives under /:lang; `/` and any path whose first segment is not a language are
 * redirected by LanguageGate / LanguageRedirect to the same path with a language prefix.
 */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={UNDER_A_LANGUAGE}>
        <LanguageGate>
          <AppLayout>
            <PageSwitch />
          </AppLayout>
        </LanguageGate>
      </Route>
      <Route>
        <LanguageRedirect />
      </Route>
    </Switch>
  );
}

/** The pattern of the page shown at `pathname` (its path after the language), if one matches. */
export function patternAt(pathname: string): string | undefined {
  if (!matchRoute(parse, UNDER_A_LANGUAGE, pathname)[0]) return undefined;
  return pages.find(([pattern]) => matchRoute(parse, fullPattern(pattern), pathname)[0])?.[0];
}

/** The lazily loaded page shown at `pathname`, if the page there is one. */
export function lazyPageAt(pathname: string): LazyPage | undefined {
  if (!matchRoute(parse, UNDER_A_LANGUAGE, pathname)[0]) return undefined;
  const page = pages.find(([pattern]) => matchRoute(parse, fullPattern(pattern), pathname)[0])?.[1] ?? NotFoundPage;
  return 'preload' in page ? (page as LazyPage) : undefined;
}
