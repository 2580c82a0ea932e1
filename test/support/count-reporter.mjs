import { writeFileSync } from 'node:fs';

/**
 * Prints `N passed, N failed, N skipped` alone on the last line, so CI can read the count
 * (the default reporter's summary shares its line with other text). A test file that fails
 * to load counts as one failure: otherwise a syntax error would look like a green run.
 */
export function countReporter() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;

  function walk(suite) {
    for (const test of suite.tests ?? []) {
      if (test.skipped) skipped += 1;
      else if (test.passed) passed += 1;
      else failed += 1;
    }
    for (const child of suite.suites ?? []) walk(child);
  }

  return {
    onTestRunFinished({ sessions }) {
      for (const session of sessions) {
        if (session.testResults) walk(session.testResults);
        const loadFailed =
          !session.passed &&
          (session.errors?.length ?? 0) > 0 &&
          !session.testResults?.tests?.length &&
          !session.testResults?.suites?.length;
        if (loadFailed) failed += 1;
      }
      process.once('exit', () => {
        // `npm test` (scripts/test.mjs) adds this count to the unit layer's for the last line.
        if (process.env.BROWSER_COUNT_FILE) writeFileSync(process.env.BROWSER_COUNT_FILE, JSON.stringify({ passed, failed, skipped }));
        process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
      });
    },
  };
}
