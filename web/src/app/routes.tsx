import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import HomePage from '../features/home/HomePage';
import { AppLayout } from '../layout/AppLayout';
import { LanguageGate } from '../routing/LanguageGate';
import { LanguageRedirect } from '../routing/LanguageRedirect';
import { routePatterns } from '../routing/paths';

const PurchasePage = lazy(() => import('../features/purchase/PurchasePage'));
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage'));
const RegisterAuthPage = lazy(() => import('../features/auth/RegisterAuthPage'));
const RegisterConfirmPage = lazy(() => import('../features/auth/RegisterConfirmPage'));
const EmailAuthPage = lazy(() => import('../features/auth/EmailAuthPage'));
const PasswordFindPage = lazy(() => import('../features/auth/PasswordFindPage'));
const PasswordFindAuthPage = lazy(() => import('../features/auth/PasswordFindAuthPage'));
const PasswordResetPage = lazy(() => import('../features/auth/PasswordResetPage'));
const PasswordResetConfirmPage = lazy(() => import('../features/auth/PasswordResetConfirmPage'));
const AccountSettingsPage = lazy(() => import('../features/account/AccountSettingsPage'));
const AccountDeletePage = lazy(() => import('../features/account/AccountDeletePage'));
const AccountDeleteConfirmPage = lazy(() => import('../features/account/AccountDeleteConfirmPage'));
const EmailChangeConfirmPage = lazy(() => import('../features/account/EmailChangeConfirmPage'));
const PurchaseHistoryPage = lazy(() => import('../features/payments/PurchaseHistoryPage'));
const PaymentDetailPage = lazy(() => import('../features/payments/PaymentDetailPage'));
const LicensePage = lazy(() => import('../features/licences/LicensePage'));
const LicenseDetailPage = lazy(() => import('./LicenseDetailRoute'));
const LicenseUpgradePage = lazy(() => import('../features/upgrades/UpgradePage'));
const PaymentConfirmPage = lazy(() => import('../features/purchase/PaymentConfirmPage'));
const PaymentFailurePage = lazy(() => import('../features/purchase/PaymentFailurePage'));
const PrivacyPolicyPage = lazy(() => import('../features/terms/PrivacyPolicyPage'));
const TermsPage = lazy(() => import('../features/terms/TermsPage'));
const LifetimePolicyPage = lazy(() => import('../features/terms/LifetimePolicyPage'));
const SubscriptionPolicyPage = lazy(() => import('../features/terms/SubscriptionPolicyPage'));
const ReleaseNotesPage = lazy(() => import('../features/release-notes/ReleaseNotesPage'));
const ReportPage = lazy(() => import('../features/reports/ReportPage'));
const AccountNamePage = lazy(() => import('../features/account/AccountNamePage'));
const SsoZendeskPage = lazy(() => import('../features/support/SsoZendeskPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));

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
