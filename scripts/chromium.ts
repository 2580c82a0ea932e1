/**
 * The system Chromium every launcher here uses (tests, screenshots, benchmarks): no test
 * tool may download its own browser on these machines, and without the networking flags
 * Chromium floods the closed network with refused connections.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
