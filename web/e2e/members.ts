/** A customer with an account, as the e2e tests need one: registered, confirmed by mail, logged in. */
import { expect, type Page } from '@playwright/test';
import { firstLink, waitForMail } from './mail';

const API = '/web/unicornpro/v1';

/** Registers `email`, follows the confirmation mail and logs in (the cookies are shared with the page). */
export async function signUpAndLogIn(page: Page, email: string, password: string): Promise<void> {
  const registered = await page.request.post(`${API}/accounts`, {
    data: { email, pw: password, language: 'ko', marketingPushEnabled: false },
  });
  expect(registered.ok()).toBe(true);
  await page.goto(firstLink(await waitForMail(email)));
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: password } });
  expect(login.ok()).toBe(true);
}
