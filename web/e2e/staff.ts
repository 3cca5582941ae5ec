/**
 * Staff in the back office for a story: members added by the test harness, each in a browser of their own with a
 * platform authenticator (WebAuthn over the DevTools protocol) that answers at once.
 * Passkeys cannot belong to an IP address, so the back office is opened on localhost (api/staff_session.py).
 */
import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8765);
export const ADMIN_APP = `http://localhost:${port}/admin`;
const API = '/web/unicornpro/v1';
const ADMIN_HEADERS = { 'X-Admin-Token': process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin' };

export interface StaffBrowser {
  context: BrowserContext;
  page: Page;
}

/** A staff member's own browser (English back office), with a platform authenticator. */
export async function staffBrowser(browser: Browser): Promise<StaffBrowser> {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => localStorage.setItem('adminLang', 'en'));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page };
}

function localhost(link: string): string {
  return link.replace(/^http:\/\/127\.0\.0\.1:\d+\/admin/, ADMIN_APP);
}

/** The member opens their enrolment link and registers a passkey. */
export async function enrol(page: Page, link: string): Promise<void> {
  await page.goto(localhost(link));
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/**
 * A member of one role, added by the test harness (POST /test-harness/staff/members: `create-owner` works once per
 * stack, and another story may have made the first owner), enrolled with a passkey in a browser of their own.
 */
export async function harnessMember(browser: Browser, request: APIRequestContext, email: string, role: string): Promise<StaffBrowser> {
  const added = await request.post(`${API}/test-harness/staff/members`, {
    headers: ADMIN_HEADERS,
    data: { email, name: email.split('@')[0] ?? email, roles: [role] },
  });
  expect(added.ok(), await added.text()).toBe(true);
  const member = await staffBrowser(browser);
  await enrol(member.page, (await added.json()).enrolmentLink);
  return member;
}

/** Sign in again with the passkey (after the session ended, say when the test clock jumped past the idle timeout). */
export async function signInAgain(page: Page, email: string): Promise<void> {
  await page.reload();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
