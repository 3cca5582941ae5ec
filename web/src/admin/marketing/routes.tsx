/**
 * Marketing's entry in the back office: the nav links (for members who may run promotions) and its pages, each a
 * lazy chunk of the admin app (the preview draws the storefront's banner component, loaded only here).
 */
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import type { Member } from '../api';
import { may } from '../passkeys';
import { useMarketingT } from './i18n';

const CouponsList = lazy(() => import('./CouponPages').then((module) => ({ default: module.CouponGroupsPage })));
const CouponGroup = lazy(() => import('./CouponPages').then((module) => ({ default: module.CouponGroupDetail })));
const Banners = lazy(() => import('./BannersPage').then((module) => ({ default: module.BannersPage })));

export function MarketingNav({ member }: { member: Member | undefined }) {
  const t = useMarketingT();
  if (!may(member, 'marketing')) return null;
  return (
    <>
      <Link href="/marketing/coupons">{t('couponGroups')}</Link> <Link href="/marketing/banners">{t('banners')}</Link>
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
