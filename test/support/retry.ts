/**
 * The browser suite does not retry (web-test-runner.config.mjs). A suite that must allow a
 * retry calls this in its `describe(function () { ... })` with the reason; every retry
 * that then happens is printed in the run's output (the page's console reaches it), so a
 * flaky test never passes unseen.
 */
export function allowRetry(suite: Mocha.Suite, reason: string, times = 1): void {
  suite.retries(times);
  suite.beforeEach(function () {
    const test = this.currentTest as (Mocha.Test & { currentRetry(): number }) | undefined;
    if (test && test.currentRetry() > 0) console.warn(`RETRY ${test.currentRetry()}/${times}: ${test.fullTitle()} (allowed: ${reason})`);
  });
}
