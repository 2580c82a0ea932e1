import type { FaultPlan, KeyStats } from '../../demo/server/faults.js';

/** The reference server is mounted on the test runner's own origin. */
export const BASE_URL = location.origin;

/** A publishable key of this test's own, with faults attached (see demo/server/faults.ts). */
export async function createKey(plan: FaultPlan = {}): Promise<string> {
  const res = await fetch('/__demo/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  if (!res.ok) throw new Error(`createKey: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { publishable_key: string }).publishable_key;
}

export async function keyStats(key: string): Promise<KeyStats> {
  const res = await fetch(`/__demo/keys/${encodeURIComponent(key)}/stats`);
  if (!res.ok) throw new Error(`keyStats: ${res.status}`);
  return (await res.json()) as KeyStats;
}

/** A token minted straight from the server, for tests of raw HTTP behaviour. */
export async function tokenFor(key: string): Promise<string> {
  const res = await fetch('/management/v1/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publishable_key: key }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
