/**
 * Marketing's entry in the back office: the nav links (for members who may run promotions) and its pages, each a
 * lazy chunk of the admin app (the preview draws the storefront's banner component, loaded only here).
 */
import { lazy, Suspense, useContext } from 'react';
import { Link } from 'wouter';
import type { Member } from '../api';
import { may } from '../passkeys';
import { LanguageContext } from '../i18n';
import { NAV_WORDS } from './nav-words';

const CouponsList = lazy(() => import('./CouponPages').then((module) => ({ default: module.CouponGroupsPage })));
const CouponGroup = lazy(() => import('./CouponPages').then((module) => ({ default: module.CouponGroupDetail })));
const Banners = lazy(() => import('./BannersPage').then((module) => ({ default: module.BannersPage })));

export function MarketingNav({ member }: { member: Member | undefined }) {
  const words = NAV_WORDS[useContext(LanguageContext)];
  if (!may(member, 'marketing')) return null;
  return (
    <>
      <Link href="/marketing/coupons">{words.couponGroups}</Link> <Link href="/marketing/banners">{words.banners}</Link>
    </>
  );
}

export function CouponGroupsRoute() {
  return (
    <Suspense fallback={null}>
      <CouponsList />
    </Suspense>
  );
}

export function CouponGroupRoute() {
  return (
    <Suspense fallback={null}>
      <CouponGroup />
    </Suspense>
  );
}

export function BannersRoute() {
  return (
    <Suspense fallback={null}>
      <Banners />
    </Suspense>
  );
}
