import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/store/db.js';
import { frames, startServer, type Frame, type Started } from './processes.js';

/**
 * Several instances on one PostgreSQL (issue #39): two servers, each its own process, share
 * TEST_DATABASE_URL's server (a schema of their own). A token from one is good on the other,
 * and a stream started on one, dropped and resumed on the other with `Last-Event-ID`, goes
 * on from the log the first writes and the notifications it sends: no gap, no seq twice.
 */
const url = process.env['TEST_DATABASE_URL'];
const ORG = 'org_instances_test_key';
const SIGNING_KEY = 'instances-test-signing-key-of-at-least-32-characters';
const schema = `instances_${process.pid}_${Date.now()}`;

beforeAll(async () => {
  if (!url) return;
  // Made here: the servers take the schema from their connection's search_path.
  const db = await openDb(url, { schema });
  await db.close();
});

afterAll(async () => {
  if (!url) return;
  const db = await openDb(url);
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await db.close();
});

/** An instance on the shared database. */
const instance = (): Promise<Started> => {
  const shared = new URL(url!);
  shared.searchParams.set('options', `-c search_path=${schema}`);
  return startServer({ DATABASE_URL: shared.href, SIGNING_KEY, ORGANIZATION_API_KEY: ORG });
};

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe.skipIf(!url)('two instances on one PostgreSQL', () => {
  it('resumes on B a stream started on A: the frames A goes on writing, none missing, none twice', async () => {
    const a = await instance();
    const b = await instance();
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const { publishable_key: key } = (await (
      await post(a.base, '/__demo/keys', { paceMs: 60, replies: [{ text: words.join(' ') }] })
    ).json()) as {
      publishable_key: string;
    };
    // Issued by B, used on A: one signing key, one store of keys.
    const { access_token: token } = (await (await post(b.base, '/management/v1/auth/token', { publishable_key: key })).json()) as {
      access_token: string;
    };
    const auth = { authorization: `Bearer ${token}` };
    const ask = { text: 'Count for me', user_id: 'visitor-1' };

    const first = await post(a.base, '/messaging/v1/messages/stream', ask, auth);
    expect(first.status).toBe(200);
    let threadId = '';
    const seen: Frame[] = [];
    for await (const frame of frames(first)) {
      if (frame === '[DONE]') break;
      if (frame.type === 'thread') threadId = frame.data.thread_id!;
      else seen.push(frame);
      if (seen.length === 5) break; // the connection drops here; A's turn goes on
    }
    const lastSeq = seen.at(-1)!.seq!;

    const asked = performance.now();
    const resumed = await post(
      b.base,
      '/messaging/v1/messages/stream',
      { ...ask, thread_id: threadId },
      { ...auth, 'last-event-id': String(lastSeq) },
    );
    expect(resumed.status).toBe(200);
    let firstReplayed = 0;
    let done = false;
    for await (const frame of frames(resumed)) {
      if (frame === '[DONE]') {
        done = true;
        break;
      }
      if (frame.type === 'thread') continue;
      firstReplayed ||= performance.now() - asked;
      seen.push(frame);
    }
    expect(done).toBe(true);
    const seqs = seen.map((f) => f.seq!);
    // One numbering, each seq once, in order, from the first frame to the reply.
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    const events = seen.filter((f) => f.type === 'event');
    expect(events.map((f) => f.data.text).join('')).toBe(words.join(' '));
    expect(seen.at(-1)!.type).toBe('message');
    // While A still ran it: B could only follow the log, A's notifications bringing each batch.
    expect(firstReplayed).toBeLessThan(2_000);

    // The transcript, read on either, holds the turn once.
    for (const base of [a.base, b.base]) {
      const transcript = (await (await fetch(`${base}/messaging/v1/threads/${threadId}/messages`, { headers: auth })).json()) as Array<{
        text: string;
      }>;
      expect(transcript.map((m) => m.text)).toEqual([ask.text, words.join(' ')]);
    }
  }, 60_000);
});
