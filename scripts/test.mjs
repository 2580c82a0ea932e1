/**
 * `npm test`: both layers, the fast one first. The unit layer runs in Node (vitest,
 * test/unit/, with its coverage floor), then the browser suite in Chromium and Firefox
 * against the reference server (web-test-runner). Both always run, so one report shows
 * every failure; the last line is their sum, `N passed, N failed, N skipped`: the line CI
 * reads. `npm run test:unit` and `npm run test:browser` run one layer.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'agent-chat-test-'));
const bin = (name) => join('node_modules', '.bin', name);

/** Runs one layer; its count (and how long it took), or one failure when it ended without one (it crashed, or a floor failed). */
function layer(command, args, countFile) {
  const file = join(dir, countFile);
  const start = performance.now();
  const run = spawnSync(bin(command), args, { stdio: 'inherit', env: { ...process.env, [countFile]: file } });
  const minutes = ((performance.now() - start) / 60_000).toFixed(1);
  let count = null;
  try {
    count = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // No count written: the layer did not get that far.
  }
  count ??= { passed: 0, failed: 0, skipped: 0 };
  if (run.status !== 0 && !count.failed) count.failed = 1;
  return { ...count, minutes };
}

const unit = layer('vitest', ['run', '--coverage'], 'UNIT_COUNT_FILE');
const browser = layer('wtr', [], 'BROWSER_COUNT_FILE');
rmSync(dir, { recursive: true, force: true });

const sum = (key) => unit[key] + browser[key];
process.stdout.write(
  `\nunit ${unit.passed}/${unit.passed + unit.failed} (${unit.minutes} min), browser ${browser.passed}/${browser.passed + browser.failed} (${browser.minutes} min)\n`,
);
process.stdout.write(`${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped\n`);
process.exit(sum('failed') ? 1 : 0);
