import { test as base } from '@playwright/test';

/**
 * The Playwright `test` with each spec file a client of its own: the API counts its per-client limits (mails,
 * logins, reports) by the address the trusted proxy forwards, as it does for visitors behind the production proxy.
 * With one address per project, the suite's registrations together ran past the hourly mail allowance once the
 * suite grew. A file's address is fixed (from its name and the project), so a file's tests share one allowance, as
 * one visitor's would.
 */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientOf(testInfo.file, testInfo.project.name) });
  },
});

export { expect } from '@playwright/test';

/** 198.18.<project>.<1-250>: a benchmarking range nothing real sends from, one address per spec file. */
export function clientOf(file: string, project: string): string {
  let hash = 0;
  for (const character of file.replace(/\\/g, '/').split('/e2e/').pop() ?? file) {
    hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  }
  const projects = ['desktop-chromium', 'mobile-chromium', 'time-travel'];
  return `198.18.${projects.indexOf(project) + 1}.${(hash % 250) + 1}`;
}
