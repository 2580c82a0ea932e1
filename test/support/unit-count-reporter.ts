import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * The unit layer's count, in the browser suite's words (`N passed, N failed, N skipped`,
 * alone on a line), and written to `UNIT_COUNT_FILE` when set: `npm test`
 * (scripts/test.mjs) adds it to the browser suite's count for the run's last line. A file
 * that fails to load, and an error outside any test, count as failures.
 */
export default class UnitCountReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>): void {
    const count = { passed: 0, failed: errors.length, skipped: 0 };
    for (const module of modules) {
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') count.passed += 1;
        else if (state === 'failed') count.failed += 1;
        else count.skipped += 1;
      }
      if (!tests && module.state() === 'failed') count.failed += 1;
    }
    if (process.env.UNIT_COUNT_FILE) writeFileSync(process.env.UNIT_COUNT_FILE, JSON.stringify(count));
    process.stdout.write(`\nunit: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
