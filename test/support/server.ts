import type { FaultPlan, KeyStats } from '../../demo/server/faults.js';
import { PREFIX, storageScope } from '../../src/state/storage.js';

/** The reference server is mounted on the test runner's own origin. */
export const BASE_URL = location.origin;

const created: string[] = [];

/** Where a widget on BASE_URL with publishable key `key` keeps its state (src/state/storage.ts). */
export function storageKeyFor(key: string): string {
  return PREFIX + storageScope(new URL(BASE_URL).href.replace(/\/+$/, ''), key);
}

/**
 * Forgets what widgets of this page's keys stored. Test files run side by side in pages of
 * one browser that share localStorage: clearing all of it would wipe another file's
 * conversation mid-test (and tell its tabs, through storage events).
 */
export function forgetStorage(): void {
  for (const key of created.splice(0)) localStorage.removeItem(storageKeyFor(key));
  // sessionStorage is this page's own.
  sessionStorage.clear();
}

/** A publishable key of this test's own, with faults attached (see demo/server/faults.ts). */
export async function createKey(plan: FaultPlan = {}): Promise<string> {
  const res = await fetch('/__demo/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  if (!res.ok) throw new Error(`createKey: ${res.status} ${await res.text()}`);
  const { publishable_key: key } = (await res.json()) as { publishable_key: string };
  created.push(key);
  return key;
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
