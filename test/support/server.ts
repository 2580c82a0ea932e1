import type { FaultPlan, KeyStats } from '../../server/src/faults/plan.js';
import { PREFIX, storageScope } from '../../src/state/storage.js';

/** The reference server is mounted on the test runner's own origin. */
export const BASE_URL = location.origin;

/**
 * The organization API key of the test runner's reference server: its dev default
 * (`DEV_ORGANIZATION_API_KEY`, server/src/auth/management-auth.ts, which a page cannot import).
 */
export const ORGANIZATION_API_KEY = 'org_dev_reference_server';

const created: string[] = [];

/** Where a widget on BASE_URL with publishable key `key` keeps its state (src/state/storage.ts). */
export function storageKeyFor(key: string): string {
  return PREFIX + storageScope(new URL(BASE_URL).href.replace(/\/+$/, ''), key);
}

/**
 * Forgets what widgets of this page's keys stored. Test files run side by side in pages of
 * one browser that share localStorage (Firefox: one profile; Chromium's pages each have a
 * context): clearing all of it wipes another file's conversation mid-test, so a widget
 * that comes back finds nothing to resume. Never call `localStorage.clear()` in a test.
 */
export function forgetStorage(): void {
  const scopes = created.splice(0).map(storageKeyFor);
  // A scope's state and what features keep beside it under its name (`…:disclaimer`).
  for (const name of Object.keys(localStorage)) {
    if (scopes.some((scope) => name === scope || name.startsWith(`${scope}:`))) localStorage.removeItem(name);
  }
  // sessionStorage is this page's own.
  sessionStorage.clear();
}

/** A publishable key of this test's own, with faults attached (see server/src/faults/plan.ts). */
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

/**
 * A token minted straight from the server, for tests of raw HTTP behaviour: a visitor's
 * when `userId` is given (it opens that visitor's threads), else one of no visitor
 * (docs/protocol.md "Visitors").
 */
export async function tokenFor(key: string, userId?: string): Promise<string> {
  const res = await fetch('/management/v1/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publishable_key: key, user_id: userId }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A login session's token for `key`'s agent (the reference server's dev login, with the
 * organization key): it serves messaging and management, as a builder's page would have.
 */
export async function loginToken(key: string): Promise<string> {
  const res = await fetch('/management/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-organization-api-key': ORGANIZATION_API_KEY },
    body: JSON.stringify({ publishable_key: key }),
  });
  if (!res.ok) throw new Error(`loginToken: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Moves the server's clock for `key` on by `ms`: its tokens are checked (and new ones
 * minted) as if that time had passed, so a test sees a token expire without waiting for it.
 */
export async function advanceServerClock(key: string, ms: number): Promise<void> {
  const res = await fetch(`/__demo/keys/${encodeURIComponent(key)}/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  if (!res.ok) throw new Error(`advanceServerClock: ${res.status}`);
}

/**
 * Runs the page's clock (`Date.now`) `ms` ahead until the returned function puts it back:
 * the widget sees its tokens age without a test waiting for them. Timers are not touched.
 */
export function advancePageClock(ms: number): () => void {
  const real = Date.now;
  Date.now = () => real.call(Date) + ms;
  return () => void (Date.now = real);
}

/** Both clocks at once: the page's and the server's for `key` (restored by the returned function). */
export async function advanceClocks(key: string, ms: number): Promise<() => void> {
  await advanceServerClock(key, ms);
  return advancePageClock(ms);
}

/**
 * The thread as the service has it, read with a login session of `key`'s (the request shows
 * in the key's stats, as a transcript read). What a test waits for when the service finishes a
 * turn on its own: once the reply is there, every token of it has been sent.
 */
export async function serviceTranscript(key: string, threadId: string): Promise<Array<{ text: string; sender?: { type: string } }>> {
  const res = await fetch(`/messaging/v1/threads/${encodeURIComponent(threadId)}/messages`, {
    // A login session's: it opens every visitor's threads, the widget's included.
    headers: { authorization: `Bearer ${await loginToken(key)}` },
  });
  return res.ok ? ((await res.json()) as Array<{ text: string; sender?: { type: string } }>) : [];
}

/** Whether the service has the agent's reply `text` in `threadId`: the turn ended there. */
export async function replied(key: string, threadId: string, text: string): Promise<boolean> {
  return (await serviceTranscript(key, threadId)).some((m) => m.sender?.type !== 'user' && m.text === text);
}

/** A thread of `turns` turns ("question 0", …) of user `u-long`, made over plain REST like any other client would. */
export async function longThread(key: string, turns: number): Promise<string> {
  const token = await tokenFor(key);
  let threadId: string | undefined;
  for (let i = 0; i < turns; i++) {
    const res = await fetch('/messaging/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ text: `question ${i}`, user_id: 'u-long', ...(threadId ? { thread_id: threadId } : {}) }),
    });
    threadId = ((await res.json()) as { thread_id: string }).thread_id;
  }
  return threadId!;
}
