import { defineProject } from 'vitest/config';

/**
 * The server's tests (`npm test` at the repository root runs them with the widget's unit
 * layer): its HTTP over `app.fetch` and real sockets, in Node.
 */
export default defineProject({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    isolate: true,
    // Each file opens an embedded PostgreSQL before its tests (test/support.ts): seconds on a busy machine.
    hookTimeout: 120_000,
    testTimeout: 30_000,
  },
});
