/**
 * `npm test` on a fresh machine: the tests run in the system Chromium and Firefox ESR (no
 * test tool downloads a browser here), and some through a real nginx. Run before the tests
 * (`pretest`): when one the run needs is missing, installs it with apt (as root, or through
 * sudo without a password), or stops at once with the one command that will. `.ci/run`
 * takes the same path.
 *
 * Paths: CHROMIUM_PATH (default /usr/bin/chromium), FIREFOX_PATH (default
 * /usr/bin/firefox-esr), NGINX_PATH (default /usr/sbin/nginx); `BROWSERS=chromium npm test`
 * needs only Chromium of the browsers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { decide, wanted } from './browsers-plan.mjs';

function canSudo() {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

function hasApt() {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function main() {
  const browsers = wanted(process.env);
  const missing = () => browsers.filter((b) => !existsSync(b.path));
  const absent = missing();
  if (!absent.length) return;
  const root = process.getuid?.() === 0;
  const plan = decide({ missing: absent, root, sudo: !root && canSudo(), apt: hasApt() });
  if (plan.action === 'none') return;
  if (plan.action === 'stop') {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`Installing what the tests run in (${plan.pkgs.join(', ')}) with apt…`);
  try {
    for (const [command, ...args] of plan.commands)
      execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch {
    console.error(`Installing failed. Run it yourself: sudo apt-get install -y ${plan.pkgs.join(' ')}`);
    process.exit(1);
  }
  const still = missing();
  if (still.length) {
    console.error(`Still missing after the install: ${still.map((b) => b.path).join(', ')}.`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
