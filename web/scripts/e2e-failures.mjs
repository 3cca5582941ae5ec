/**
 * The browser tests that did not pass, from Playwright's JSON report: printed last by `make e2e-built` when the
 * suite fails, after the stack's logs, so the end of a CI log names them.
 *
 *   node scripts/e2e-failures.mjs ../var/e2e/report.json
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each test whose outcome was not the expected one: `[project] › file:line › title` and its first error line. */
export function failuresOf(report) {
  const found = [];
  // The report's outer suites are the files; the ones inside are `describe` blocks, whose titles prefix a test's.
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'expected' || test.status === 'skipped') continue;
        const results = test.results ?? [];
        const last = results[results.length - 1];
        const error = (last?.error?.message ?? last?.status ?? test.status).split('\n')[0];
        const title = [...titles, spec.title].join(' › ');
        found.push(`[${test.projectName}] › ${spec.file}:${spec.line} › ${title}: ${stripColours(error)}`);
      }
    }
    for (const inner of suite.suites ?? []) walk(inner, [...titles, inner.title]);
  };
  for (const file of report.suites ?? []) walk(file, []);
  return found;
}

function stripColours(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reportPath = process.argv[2];
  let failures;
  try {
    failures = failuresOf(JSON.parse(readFileSync(reportPath, 'utf8')));
  } catch (error) {
    console.log(`--- no browser test report at ${reportPath} (${error.message}): the suite did not get to run ---`);
    process.exit(0);
  }
  console.log(`--- the browser tests that did not pass (${failures.length}) ---`);
  for (const line of failures) console.log(line);
}
