import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the npm scripts, without declarations
import { decide, wanted } from '../../../scripts/browsers-plan.mjs';

/**
 * `npm test` on a fresh machine (scripts/browsers.mjs runs before the tests): a missing
 * browser is installed when apt may be used, and otherwise the run stops at once with the
 * command that will install it, never with a launcher's stack trace.
 */
interface Browser {
  name: string;
  pkg: string;
  standard: string;
  path: string;
  variable: string;
}
type Plan = { action: 'none' } | { action: 'install'; commands: string[][]; pkgs: string[] } | { action: 'stop'; message: string };
const plan = decide as (facts: { missing: Browser[]; root: boolean; sudo: boolean; apt: boolean }) => Plan;
const browsers = wanted as (env: Record<string, string | undefined>) => Browser[];

describe('npm test sets up its browsers', () => {
  const both = browsers({});

  it('needs Chromium and Firefox ESR, or what BROWSERS names, and nginx, where the variables say', () => {
    expect(both.map((b) => [b.pkg, b.path])).to.deep.equal([
      ['chromium', '/usr/bin/chromium'],
      ['firefox-esr', '/usr/bin/firefox-esr'],
      ['nginx', '/usr/sbin/nginx'],
    ]);
    expect(browsers({ BROWSERS: 'chromium' }).map((b) => b.name)).to.deep.equal(['chromium', 'nginx']);
    expect(browsers({ FIREFOX_PATH: '/opt/ff/firefox' })[1]!.path).to.equal('/opt/ff/firefox');
    expect(browsers({ NGINX_PATH: '/opt/nginx/sbin/nginx' })[2]!.path).to.equal('/opt/nginx/sbin/nginx');
  });

  it('does nothing when the browsers are there', () => {
    expect(plan({ missing: [], root: false, sudo: false, apt: false })).to.deep.equal({ action: 'none' });
  });

  it('installs with apt as root, or through sudo without a password', () => {
    const asRoot = plan({ missing: both, root: true, sudo: false, apt: true });
    expect(asRoot.action === 'install' && asRoot.commands.map((c) => c.join(' '))).to.deep.equal([
      'apt-get update -qq',
      'apt-get install -y --no-install-recommends chromium firefox-esr nginx',
    ]);
    const withSudo = plan({ missing: [both[1]!], root: false, sudo: true, apt: true });
    expect(withSudo.action === 'install' && withSudo.commands[1]!.join(' ')).to.equal(
      'sudo -n apt-get install -y --no-install-recommends firefox-esr',
    );
  });

  it('stops with the one command that will, when it may not install', () => {
    const stop = plan({ missing: both, root: false, sudo: false, apt: true });
    expect(stop.action).to.equal('stop');
    expect(stop.action === 'stop' && stop.message).to.contain('sudo apt-get install -y chromium firefox-esr nginx');
    const noApt = plan({ missing: [both[0]!], root: true, sudo: false, apt: false });
    expect(noApt.action === 'stop' && noApt.message).to.contain('CHROMIUM_PATH');
  });

  it('never installs over a path a variable moved: it says the variable points at nothing', () => {
    const moved = browsers({ CHROMIUM_PATH: '/opt/chrome/chrome' })[0]!;
    const stop = plan({ missing: [moved], root: true, sudo: false, apt: true });
    expect(stop.action === 'stop' && stop.message).to.contain('Check CHROMIUM_PATH');
  });
});
