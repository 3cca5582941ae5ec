import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real backend, which serves web/dist.
 *
 *   npm run build && npm run e2e                 # the real stack (Procfile under supervisord), the default
 *   E2E_SERVER=preview npm run e2e               # `vite preview` of web/dist instead (no backend)
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), E2E_PORT (default 8765),
 * E2E_SERVER_LOG=1 to see the servers' output (otherwise it is kept in var/e2e/stack.log). The
 * stack is every process of the Procfile (api, projector, reactor, worker, beat, PortOne sandbox on
 * E2E_PORT + 1) on a fresh var/e2e, so mail lands in var/e2e/outbox/ for tests to open. The stack runs
 * under `python -m operations.stack`: a process that dies is restarted, var/e2e/stack.log names it, and
 * each process's output is kept in var/e2e/logs/<name>.log.
 */
const webDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(webDir, '..');
const port = Number(process.env.E2E_PORT ?? 8765);
const baseURL = `http://127.0.0.1:${port}`;
const usePreview = process.env.E2E_SERVER === 'preview';
// E2E_VAR_DIR lets two runs side by side keep apart (each empties its own directory at start).
const varDir = process.env.E2E_VAR_DIR ? path.resolve(process.env.E2E_VAR_DIR) : path.join(repoRoot, 'var', 'e2e');
const python = path.join(repoRoot, '.venv', 'bin', 'python');

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-gpu',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export const e2eVarDir = varDir;
// Stand-ins for the support desk and the chat widget (e2e/stand-ins/desk-server.mjs), on E2E_PORT + 2.
export const standInUrl = `http://127.0.0.1:${port + 2}`;
export const standInSecrets = {
  zendesk: 'e2e-zendesk-secret-0123456789abcdef0123456789',
  chatMember: 'e2e-chat-member-secret-0123456789abcdef',
};
export const chatPluginKey = 'e2e-chat-plugin-key';
const adminToken = process.env.E2E_ADMIN_TOKEN ?? 'e2e-admin';
// Tests that move the stack's shared clock run last, on their own, so no other test sees time jump.
const timeTravel = /time-travel\/.*\.spec\.ts$/;

// Without E2E_SERVER_LOG the supervisor's log goes to var/e2e/stack.log and each process's output to
// var/e2e/logs/<name>.log; `make e2e` prints the end of each when a test fails.
const stackOutput = process.env.E2E_SERVER_LOG
  ? ''
  : ` --process-logs "${path.join(varDir, 'logs')}" >> "${path.join(varDir, 'stack.log')}" 2>&1`;

const backendServer = {
  // A fresh, empty var dir per run so that every run starts from the same state.
  command: `rm -rf "${varDir}" && mkdir -p "${varDir}" && exec "${python}" -m operations.stack${stackOutput}`,
  cwd: repoRoot,
  url: `${baseURL}/web/unicornpro/v1/health`,
  env: {
    APP_VAR_DIR: varDir,
    APP_ENV: 'test',
    API_PORT: String(port),
    PORTONE_SANDBOX_PORT: String(port + 1),
    PORTONE_BASE_URL: `http://127.0.0.1:${port + 1}`,
    // The App Store's and Google Play's stand-ins (python -m integrations.stores), on E2E_PORT + 3.
    STORE_STANDIN_PORT: String(port + 3),
    APP_BASE_URL: baseURL,
    PROJECTOR_POLL_SECONDS: '0.05',
    // The shared test clock and the harness's admin API, for the time-travel project (never in production).
    TEST_CLOCK: '1',
    TEST_ADMIN_TOKEN: adminToken,
    // The desk's sign-on and the chat widget's script are the local stand-ins.
    ZENDESK_URL: standInUrl,
    ZENDESK_SECRET: standInSecrets.zendesk,
    CHAT_SCRIPT_URL: `${standInUrl}/chat/plugin.js`,
    CHAT_PLUGIN_KEY: chatPluginKey,
    CHAT_MEMBER_SECRET: standInSecrets.chatMember,
    // The visitor's country from a trusted proxy's header, as behind Cloudflare: tests that play a visitor
    // from abroad send it; every other test is a visitor from the default country, KR.
    COUNTRY_HEADER: 'CF-IPCountry',
    // The back office's stories refund above the approval limit with a store price (e2e/backoffice.spec.ts).
    STAFF_REFUND_APPROVAL_LIMITS: 'KRW=10000,JPY=1000,USD=1000',
  },
};

const standInServer = {
  command: 'node e2e/stand-ins/desk-server.mjs',
  cwd: webDir,
  url: `${standInUrl}/health`,
  env: { STAND_IN_PORT: String(port + 2), ZENDESK_SECRET: standInSecrets.zendesk },
  reuseExistingServer: !process.env.CI,
  // Waits, not retries, absorb a slow host: an expectation waits up to 15 s for its state (Playwright's 5 s default
  // ran out on pages that took 7-10 s to render while the 2-core host ran other suites beside the browser).
  timeout: 60_000,
  expect: { timeout: 15_000 },
};

const previewServer = {
  command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
  cwd: webDir,
  url: `${baseURL}/`,
};

/**
 * Each project is a client of its own, as visitors behind the production proxy are: the API counts its per-client
 * limits (mails, logins, reports) by the address the proxy forwards, and trusts that header from 127.0.0.1 only.
 * Specs go further through e2e/clients.ts's `test`: each spec file is a client of its own within its project.
 */
function clientAddress(project: number): Record<string, string> {
  return { 'X-Forwarded-For': `198.51.100.${project}` };
}

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // No retries, in CI either: a test that passes only when run again is a bug to fix, not to hide.
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  // The JSON report is what `make e2e-built` names the failed tests from, last in its output (scripts/e2e-failures.mjs).
  reporter: [['list'], ...(process.env.CI ? [['html', { open: 'never' }] as const] : []), ['json', { outputFile: path.join(varDir, 'report.json') }]],
  // Waits, not retries, absorb a slow host: an expectation waits up to 15 s for its state (Playwright's 5 s default
  // ran out on pages that took 7-10 s to render while the 2-core host ran other suites beside the browser).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // Browser language is pinned so that language detection is deterministic.
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop-chromium',
      testIgnore: timeTravel,
      use: { ...devices['Desktop Chrome'], locale: 'ko-KR', launchOptions: chromium, extraHTTPHeaders: clientAddress(1) },
    },
    {
      name: 'mobile-chromium',
      testIgnore: timeTravel,
      // A 375px-wide phone (the narrowest common width), with Pixel 7's touch and device scale.
      use: {
        ...devices['Pixel 7'],
        viewport: { width: 375, height: 812 },
        locale: 'ko-KR',
        launchOptions: chromium,
        extraHTTPHeaders: clientAddress(2),
      },
    },
    {
      name: 'time-travel',
      testMatch: timeTravel,
      dependencies: ['desktop-chromium', 'mobile-chromium'],
      // One at a time: each moves the one clock, and a jump past the staff idle timeout or a renewal date in the
      // middle of another story ends its session or charges its subscription (marketing.spec signed out in CI).
      workers: 1,
      use: { ...devices['Desktop Chrome'], locale: 'ko-KR', launchOptions: chromium, extraHTTPHeaders: clientAddress(3) },
    },
  ],
  webServer: [
    standInServer,
    {
      ...(usePreview ? previewServer : backendServer),
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      // supervisord stops its processes on SIGTERM; the default SIGKILL of the group left them running. It
      // gives each up to 10 s before killing it, so it must be given longer than that: killed itself sooner,
      // it leaves the rest running (orphans that then hold the ports of the next run).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 40_000 },
      // The server's log is noisy; E2E_SERVER_LOG=1 shows it.
      stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
      stderr: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
    },
  ],
});
