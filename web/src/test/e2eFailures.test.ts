import { describe, expect, it } from 'vitest';
import { failuresOf } from '../../scripts/e2e-failures.mjs';

// The shape of Playwright's JSON report, cut down to what is read.
const report = {
  suites: [
    {
      title: 'purchase.spec.ts',
      file: 'purchase.spec.ts',
      specs: [
        {
          title: 'a guest buys a lifetime licence',
          file: 'purchase.spec.ts',
          line: 12,
          tests: [
            { projectName: 'desktop-chromium', status: 'expected', results: [{ status: 'passed' }] },
            {
              projectName: 'mobile-chromium',
              status: 'unexpected',
              results: [{ status: 'failed', error: { message: '\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\n\nLocator: …' } }],
            },
          ],
        },
      ],
      suites: [
        {
          title: 'the licence page',
          file: 'purchase.spec.ts',
          specs: [
            {
              title: 'shows the key',
              file: 'purchase.spec.ts',
              line: 40,
              tests: [
                { projectName: 'desktop-chromium', status: 'unexpected', results: [{ status: 'timedOut' }] },
                { projectName: 'desktop-chromium', status: 'skipped', results: [] },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe("the browser suite's failures, printed at the end of a failed run", () => {
  it('name each test that did not pass with its project, place, describe blocks and first error line', () => {
    expect(failuresOf(report)).toEqual([
      '[mobile-chromium] › purchase.spec.ts:12 › a guest buys a lifetime licence: Error: expect(locator).toBeVisible() failed',
      '[desktop-chromium] › purchase.spec.ts:40 › the licence page › shows the key: timedOut',
    ]);
  });

  it('are none for a run where every test passed or was skipped', () => {
    expect(failuresOf({ suites: [{ title: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, tests: [{ projectName: 'p', status: 'expected', results: [] }] }] }] })).toEqual([]);
  });
});
