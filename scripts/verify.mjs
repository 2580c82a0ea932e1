/**
 * `npm run verify`: every check CI makes, in order, each timed: typecheck, lint, build,
 * the manifest, framework types, package, README and size checks, then `npm test`. The
 * steps' times are printed before the tests start, and `npm test` prints its layers' times
 * before its count line, so the run's last line stays the count CI reads.
 */
import { spawnSync } from 'node:child_process';

const STEPS = ['typecheck', 'lint', 'build', 'check:manifest', 'check:types', 'check:pack', 'check:readme', 'size'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const took = [];
for (const step of STEPS) {
  const start = performance.now();
  const run = spawnSync(npm, ['run', step], { stdio: 'inherit' });
  took.push(`${step} ${Math.round((performance.now() - start) / 1000)} s`);
  if (run.status !== 0) {
    console.error(`verify: ${step} failed (${took.join(', ')})`);
    process.exit(run.status ?? 1);
  }
}
console.log(`verify: ${took.join(', ')}; now the tests`);
process.exit(spawnSync(npm, ['test'], { stdio: 'inherit' }).status ?? 1);
