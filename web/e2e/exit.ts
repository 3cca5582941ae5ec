/** A monthly subscriber for the exit's stories: registered, confirmed, logged in, subscribed over the API. */
import { expect, type Page } from '@playwright/test';
import { signUpAndLogIn } from './members';

export const API = '/web/unicornpro/v1';
export const PASSWORD = 'unicorn2026';
const CARD = { cardNumber: '4111111111111111', expiryYear: new Date().getFullYear() + 3, expiryMonth: 12, password: '12', birth: '900101' };

/** A fresh bearer token for `email` (the page's cookies log in too). */
export async function bearer(page: Page, email: string): Promise<Record<string, string>> {
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: PASSWORD } });
  expect(login.ok()).toBe(true);
  return { Authorization: `Bearer ${(await login.json()).accessToken}` };
}

/** Signs `email` up and subscribes it to the monthly licence (2,900원) with a typed card; the user licence id. */
export async function monthlySubscriber(page: Page, email: string): Promise<string> {
  await signUpAndLogIn(page, email, PASSWORD);
  const started = await page.request.post(`${API}/payments/licenses/subscribe/new/new-billingkey`, {
    headers: await bearer(page, email),
    data: { licenseId: 111, countryCode: 'KR', card: CARD },
  });
  expect(started.ok()).toBe(true);
  return String((await started.json()).userLicenseId);
}
