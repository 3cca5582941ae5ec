/**
 * Marketing's calls (api/routers/marketing.py): coupon groups and the banner board. JSON goes through the back
 * office's `staffCall`; a banner travels as multipart (its JSON, its images and the reason), with the same CSRF header.
 */
import type { components } from '../../api/schema';
import { StaffApiError, staffCall } from '../api';

export type CouponGroup = components['schemas']['CouponGroupOut'];
export type CouponGroupRow = components['schemas']['CouponGroupRow'];
export type CouponGroupPage = components['schemas']['CouponGroupPage'];
export type CouponCode = components['schemas']['CouponCodeRow'];
export type Redemption = components['schemas']['RedemptionOut'];
export type Totals = components['schemas']['Totals'];
export type Banner = components['schemas']['BannerOut'];
export type BannerLocalization = components['schemas']['BannerLocalizationOut'];

export const STAFF_BASE = '/web/unicornpro/v1/staff';

export const listGroups = () => staffCall<CouponGroupRow[]>('GET', '/coupon-groups');
export const getGroup = (id: string) => staffCall<CouponGroupPage>('GET', `/coupon-groups/${id}`);
export const createGroup = (body: Record<string, unknown>) => staffCall<CouponGroupPage>('POST', '/coupon-groups', body);
export const changeGroup = (id: string, body: Record<string, unknown>) =>
  staffCall<CouponGroupPage>('PATCH', `/coupon-groups/${id}`, body);
export const disableGroup = (id: string, reason: string) =>
  staffCall<CouponGroupPage>('POST', `/coupon-groups/${id}/disable`, { reason });
export const issueCodes = (id: string, count: number, reason: string) =>
  staffCall<CouponGroupPage>('POST', `/coupon-groups/${id}/codes`, { count, reason });
export const codesCsvUrl = (id: string) => `${STAFF_BASE}/coupon-groups/${id}/codes.csv`;
export const listBanners = () => staffCall<Banner[]>('GET', '/banners');
export const endBanner = (id: number, reason: string) => staffCall<Banner>('POST', `/banners/${id}/end`, { reason });

function csrf(): string {
  const found = document.cookie.split('; ').find((part) => part.startsWith('staff_csrf='));
  return found ? decodeURIComponent(found.slice('staff_csrf='.length)) : '';
}

/** Images by part name, `<langCode>.<backgroundImage|pcImage|mobileImage>`. */
export type BannerImages = Record<string, File>;

/** POST /banners (a new one) or PATCH /banners/{id} (a change): the banner's JSON, its new images, the reason. */
export async function sendBanner(
  banner: Record<string, unknown>,
  images: BannerImages,
  reason: string,
  id?: number,
): Promise<Banner> {
  const form = new FormData();
  form.append('eventBanner', JSON.stringify(banner));
  if (reason) form.append('reason', reason);
  for (const [name, file] of Object.entries(images)) form.append(name, file);
  const answer = await fetch(id === undefined ? `${STAFF_BASE}/banners` : `${STAFF_BASE}/banners/${id}`, {
    method: id === undefined ? 'POST' : 'PATCH',
    headers: { 'X-Staff-CSRF': csrf() },
    credentials: 'same-origin',
    body: form,
  });
  const data: unknown = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const envelope = data as { errorCode?: number; message?: string };
    throw new StaffApiError(answer.status, envelope.errorCode, envelope.message ?? answer.statusText);
  }
  return data as Banner;
}

/** A moment as the +09:00 wall clock a `datetime-local` input shows (`2026-11-03T00:00`). */
export function toKstInput(value: string | null | undefined): string {
  if (!value) return '';
  const kst = new Date(new Date(value).getTime() + 9 * 3_600_000);
  return kst.toISOString().slice(0, 16);
}

/** A `datetime-local` value read as +09:00 (the spec's zone for coupon and banner dates), or null when empty. */
export function fromKstInput(value: string): string | null {
  return value ? `${value}:00+09:00` : null;
}

/** A comma-separated list of country codes, upper-cased. */
export function countryList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim().toUpperCase())
    .filter(Boolean);
}
