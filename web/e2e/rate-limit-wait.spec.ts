import { expect, test } from './clients';
import { ko } from '../src/i18n/ko';

/**
 * Issue 29, finding 16: "Too many requests" says how long to wait. The API sends Retry-After with -4 and the
 * login page (where it was seen, in Korean) names the wait in minutes.
 *
 * The story plays a client of its own (its own forwarded address), so its refused logins spend no other story's
 * budget.
 */
test('too many logins say how many minutes to wait', async ({ page }, info) => {
  const client = info.project.name === 'mobile-chromium' ? '198.51.100.129' : '198.51.100.29';
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': client });
  const email = `e2e-wait-${info.project.name}-${Date.now()}@example.com`;
  await page.goto('/ko/login');
  await expect(page.getByRole('heading', { level: 1, name: ko.auth.login.heading })).toBeVisible();
  await page.getByLabel(ko.auth.fields.email, { exact: true }).fill(email);
  await page.getByLabel(ko.auth.fields.password, { exact: true }).fill('wrong9999');
  const submit = page.getByRole('button', { name: ko.auth.login.submit, exact: true });
  let status = 0;
  for (let attempt = 0; attempt < 20 && status !== 429; attempt += 1) {
    const answer = page.waitForResponse((response) => response.url().endsWith('/auth/login'));
    await submit.click();
    status = (await answer).status();
  }
  expect(status).toBe(429);
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(/요청이 너무 많습니다\. \d+분 후에 다시 시도해 주세요\./);
  await expect(alert).not.toContainText('잠시 후');
});
