import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import HomePage from '../features/home/HomePage';
import { AppLayout } from '../layout/AppLayout';
import { LanguageGate } from '../routing/LanguageGate';
import { LanguageRedirect } from '../routing/LanguageRedirect';
import { routePatterns } from '../routing/paths';

const PurchasePage = lazy(() => import('../features/purchase/PurchasePage'));
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const LicensePage = lazy(() => import('../features/licences/LicensePage'));
const PrivacyPolicyPage = lazy(() => import('../features/terms/PrivacyPolicyPage'));
const TermsPage = lazy(() => import('../features/terms/TermsPage'));
const ReleaseNotesPage = lazy(() => import('../features/release-notes/ReleaseNotesPage'));
const ReportPage = lazy(() => import('../features/reports/ReportPage'));
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
          { path: routePatterns.license, element: <LicensePage /> },
          { path: routePatterns.privacyPolicy, element: <PrivacyPolicyPage /> },
          { path: routePatterns.terms, element: <TermsPage /> },
          { path: routePatterns.releaseNotes, element: <ReleaseNotesPage /> },
          { path: routePatterns.report, element: <ReportPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
