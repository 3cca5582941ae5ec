import { expect, type APIRequestContext } from '@playwright/test';

/** The test-only admin API of the e2e stack (spec section 7): coupon groups and event banners. */

export const API = '/web/unicornpro/v1';
export const ADMIN = `${API}/test-harness/admin`;
const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin';

/** A code no other test uses. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

/** The admin's bearer header, from a login with the build environment's credential. */
export async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const login = await request.post(`${ADMIN}/auth/login`, {
    data: { email: 'admin@unicornpro.test', password: ADMIN_TOKEN },
  });
  expect(login.ok()).toBe(true);
  return { Authorization: `Bearer ${(await login.json()).accessToken}` };
}

/** Opens a coupon group; its id. */
export async function couponGroup(request: APIRequestContext, fields: object): Promise<string> {
  const created = await request.post(`${ADMIN}/coupons/group`, { data: fields, headers: await adminHeaders(request) });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()).couponGroup.id;
}
