import { defineConfig } from 'vitest/config';

/**
 * The unit layer (`npm run test:unit`), by area, each a project (`--project widget`):
 * - widget (test/unit/): the widget's logic in Node, without a browser or a server: the
 *   conversation store's transitions, the turn, resume, mirror and recovery decisions, the
 *   wire guards, the settings checks, the features' registry and the markdown tail logic.
 *   Time is faked where it matters (vi.useFakeTimers);
 * - build (test/unit/build/): the build's plugins and scripts;
 * - server (server/test/): the server's HTTP, storage and instances.
 * What a reader or a host page sees is tested in real browsers against the reference
 * server (web-test-runner.config.mjs).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'widget',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/build/**'],
          environment: 'node',
          setupFiles: ['test/unit/support/globals.ts'],
          // One file's fakes (storage, channels, timers) never reach another's.
          isolate: true,
        },
      },
      {
        test: { name: 'build', include: ['test/unit/build/**/*.test.ts'], environment: 'node', isolate: true },
      },
      // The server package's own tests (server/vitest.config.ts).
      'server',
    ],
    reporters: ['default', './test/support/unit-count-reporter.ts'],
    coverage: {
      provider: 'v8',
      // The logic the unit layer is for; templates and styles are the browser suite's.
      include: [
        'src/state/**/*.ts',
        'src/continuity/**/*.ts',
        'src/client/{bodies,errors,guards,progress,sse,token}.ts',
        'src/markdown/{tail,plain}.ts',
        'src/i18n/index.ts',
        'src/lazy.ts',
      ],
      // Types only: nothing runs.
      exclude: ['src/state/scene.ts', 'src/state/types.ts'],
      // The floor: below it, `npm run test:unit` (and so `npm test`) fails. Raise it with the tests.
      thresholds: { lines: 85, statements: 82, functions: 80, branches: 72 },
      reporter: ['text-summary', 'text'],
      reportsDirectory: 'coverage/unit',
    },
  },
});
