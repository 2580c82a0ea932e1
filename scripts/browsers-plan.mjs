/**
 * The decisions of scripts/browsers.mjs (which browsers a test run needs, and what to do
 * about missing ones), apart from its effects so a test can hold them
 * (test/scripts/browsers.test.ts).
 */
/**
 * What a run needs: the browsers (or those BROWSERS names) and nginx, which the tests of
 * streams through a proxy start (test/element/proxy.test.ts). Each with its Debian package,
 * its standard path, the path it is at, and the variable that moves it.
 */
export function wanted(env) {
  const only = env.BROWSERS?.split(',').map((name) => name.trim().toLowerCase());
  const tool = (name, pkg, standard, variable) => ({ name, pkg, standard, path: env[variable] ?? standard, variable });
  return [
    ...[
      tool('chromium', 'chromium', '/usr/bin/chromium', 'CHROMIUM_PATH'),
      tool('firefox', 'firefox-esr', '/usr/bin/firefox-esr', 'FIREFOX_PATH'),
    ].filter((browser) => !only || only.some((name) => browser.name.includes(name))),
    tool('nginx', 'nginx', '/usr/sbin/nginx', 'NGINX_PATH'),
  ];
}

/**
 * What to do about the missing browsers: nothing, install them (the command to run), or
 * stop with a message that says how. Pure, so the decision is tested.
 */
export function decide({ missing, root, sudo, apt }) {
  if (!missing.length) return { action: 'none' };
  const pkgs = missing.map((b) => b.pkg);
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', ...pkgs];
  const moved = missing.filter((b) => b.path !== b.standard);
  if (apt && !moved.length && (root || sudo)) {
    const prefix = root ? [] : ['sudo', '-n'];
    return {
      action: 'install',
      commands: [
        [...prefix, 'apt-get', 'update', '-qq'],
        [...prefix, ...install],
      ],
      pkgs,
    };
  }
  const lines = [`npm test runs in the system browsers, with nginx; missing: ${missing.map((b) => `${b.name} (${b.path})`).join(', ')}.`];
  if (moved.length) lines.push(`Check ${moved.map((b) => b.variable).join(' and ')}: nothing is there.`);
  else if (apt) lines.push('Install them with:', `  sudo apt-get install -y ${pkgs.join(' ')}`);
  else lines.push(`Install ${pkgs.join(' and ')} and point ${missing.map((b) => b.variable).join(' / ')} at them.`);
  lines.push('Or run one browser: BROWSERS=chromium npm test');
  return { action: 'stop', message: lines.join('\n') };
}
