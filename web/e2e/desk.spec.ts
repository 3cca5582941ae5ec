/**
 * The support desk's sign-on and the chat widget against local stand-ins (e2e/stand-ins/desk-server.mjs):
 * the desk checks the JWT's signature with the shared secret and records who signed on; the chat script
 * records how the widget was booted.
 */
import { createHmac } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { chatPluginKey, standInSecrets, standInUrl } from '../playwright.config';
import { firstLink, waitForMail } from './mail';
import { signUpAndLogIn } from './members';

const API = '/web/unicornpro/v1';
const DESK_PAGE = `${standInUrl}/hc/ko/requests/new`;

interface Boot {
  pluginKey?: string;
  language?: string;
  memberId?: string;
  memberHash?: string;
}

declare global {
  interface Window {
    __chatStandIn?: { boots: Boot[]; calls: string[] };
  }
}

const suffix = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const unique = (name: string) => `${name}-${suffix()}@example.com`;

/** Registers `email` and confirms it by mail, without logging in. */
async function registerConfirmed(page: Page, email: string, password: string): Promise<void> {
  const registered = await page.request.post(`${API}/accounts`, {
    data: { email, pw: password, language: 'ko', marketingPushEnabled: false },
  });
  expect(registered.ok()).toBe(true);
  await page.goto(firstLink(await waitForMail(email)));
}

/** The boots the stand-in chat script has recorded on this page, once there is one. */
async function chatBoots(page: Page): Promise<Boot[]> {
  await page.waitForFunction(() => (window.__chatStandIn?.boots.length ?? 0) > 0);
  return page.evaluate(() => window.__chatStandIn?.boots ?? []);
}

test('a logged-out customer signs on to the desk through login and name entry', async ({ page }) => {
  const email = unique('desk');
  const name = `데스크 손님 ${suffix()}`; // nicknames are unique
  await registerConfirmed(page, email, 'abcd1234');

  await page.goto(`/ko/sso/zendesk?zendesk_url=${encodeURIComponent(DESK_PAGE)}`);
  await expect(page).toHaveURL(`/ko/login?return_to=${encodeURIComponent(DESK_PAGE)}`);
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill('abcd1234');
  await page.getByRole('button', { name: '로그인' }).click();

  await expect(page).toHaveURL(`/ko/account/name?zendesk_url=${encodeURIComponent(DESK_PAGE)}`);
  await expect(page.getByRole('heading', { level: 1, name: '이름 입력' })).toBeVisible();
  await page.getByLabel('이름 또는 닉네임').fill(name);
  await page.getByRole('button', { name: '저장하고 계속하기' }).click();

  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/access/jwt\\?`));
  await expect(page.getByRole('heading', { name: 'Stand-in desk' })).toBeVisible();
  await expect(page.locator('#signed-on')).toHaveText(`${name} <${email}>`);
  await expect(page.locator('#return-to')).toHaveText(DESK_PAGE);
  const signOns = (await (await page.request.get(`${standInUrl}/sign-ons`)).json()) as {
    refused: boolean;
    email?: string;
  }[];
  expect(signOns.filter((signOn) => signOn.email === email)).toEqual([
    expect.objectContaining({ refused: false, email, name, returnTo: DESK_PAGE }),
  ]);
});

test('a return address off the desk is replaced by the desk itself', async ({ page }) => {
  const email = unique('wander');
  await signUpAndLogIn(page, email, 'abcd1234');
  const named = await page.request.patch(`${API}/accounts`, {
    headers: { Authorization: `Bearer ${await accessToken(page, email)}` },
    data: { name: `Wanderer ${suffix()}` },
  });
  expect(named.ok()).toBe(true);
  await page.goto(`/ko/sso/zendesk?zendesk_url=${encodeURIComponent('https://evil.example/phish')}`);
  await expect(page.getByRole('heading', { name: 'Stand-in desk' })).toBeVisible();
  await expect(page.locator('#return-to')).toHaveText(`${standInUrl}/`);
});

async function accessToken(page: Page, email: string): Promise<string> {
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: 'abcd1234' } });
  return ((await login.json()) as { accessToken: string }).accessToken;
}

test('the chat widget boots anonymous visitors without a member and members with their hash', async ({ page }) => {
  await page.goto('/ko');
  const anonymous = await chatBoots(page);
  expect(anonymous.at(-1)).toEqual({ pluginKey: chatPluginKey, language: 'ko' });

  const email = unique('chat');
  await signUpAndLogIn(page, email, 'abcd1234');
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: 'abcd1234' } });
  const { id } = (await login.json()) as { id: string };
  await page.goto('/en');
  await page.waitForFunction(() => window.__chatStandIn?.boots.some((boot) => boot.memberHash) ?? false);
  const boots = await page.evaluate(() => window.__chatStandIn?.boots ?? []);
  const expectedHash = createHmac('sha256', standInSecrets.chatMember).update(id).digest('hex');
  expect(boots.filter((boot) => boot.memberHash)).toEqual([
    { pluginKey: chatPluginKey, language: 'en', memberId: id, memberHash: expectedHash },
  ]);
});
