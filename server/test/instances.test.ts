import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openDb } from '../src/store/db.js';
import { frames, sharedDatabase, type Frame } from './processes.js';

/**
 * Several instances on one PostgreSQL (issue #39): two servers, each its own process, share
 * TEST_DATABASE_URL's server (a schema of their own). A token from one is good on the other,
 * and a stream started on one, dropped and resumed on the other with `Last-Event-ID`, goes
 * on from the log the first writes and the notifications it sends: no gap, no seq twice.
 */
const url = process.env['TEST_DATABASE_URL'];
const { schema, instance } = sharedDatabase(url, 'instances');

/** A minted key (made on `base`) whose one reply is `words`, paced, and a token for it from `tokenFrom`: its Authorization header. */
async function slowKey(base: string, words: string[], paceMs: number, tokenFrom = base): Promise<Record<string, string>> {
  const { publishable_key: key } = (await (await post(base, '/__demo/keys', { paceMs, replies: [{ text: words.join(' ') }] })).json()) as {
    publishable_key: string;
  };
  const { access_token: token } = (await (await post(tokenFrom, '/management/v1/auth/token', { publishable_key: key })).json()) as {
    access_token: string;
  };
  return { authorization: `Bearer ${token}` };
}

/** Reads a stream until `count` frames after its `thread` frame, then drops it (the turn goes on): its thread and those frames. */
async function readThenDrop(res: Response, count: number): Promise<{ threadId: string; seen: Frame[] }> {
  let threadId = '';
  const seen: Frame[] = [];
  for await (const frame of frames(res)) {
    if (frame === '[DONE]') break;
    if (frame.type === 'thread') threadId = frame.data.thread_id!;
    else seen.push(frame);
    if (seen.length === count) break;
  }
  return { threadId, seen };
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe.skipIf(!url)('two instances on one PostgreSQL', () => {
  it('resumes on B a stream started on A: the frames A goes on writing, none missing, none twice', async () => {
    const a = await instance();
    const b = await instance();
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    // Issued by B, used on A: one signing key, one store of keys.
    const auth = await slowKey(a.base, words, 60, b.base);
    const ask = { text: 'Count for me', user_id: 'visitor-1' };

    const first = await post(a.base, '/messaging/v1/messages/stream', ask, auth);
    expect(first.status).toBe(200);
    const { threadId, seen } = await readThenDrop(first, 5);
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

  it('ends the turn of an instance killed mid-reply as interrupted, for a follower on another, once its lease lapses', async () => {
    const lease = { TURN_LEASE_MS: '1500' };
    const a = await instance(lease);
    const b = await instance(lease);
    const words = Array.from({ length: 80 }, (_, i) => `w${i}`);
    const auth = await slowKey(a.base, words, 150);
    const ask = { text: 'Talk slowly', user_id: 'visitor-2' };
    const first = await post(a.base, '/messaging/v1/messages/stream', ask, auth);
    const { threadId, seen } = await readThenDrop(first, 3);
    // B follows the turn A runs; A dies once B has passed on a frame of its own.
    const resumed = await post(
      b.base,
      '/messaging/v1/messages/stream',
      { ...ask, thread_id: threadId },
      { ...auth, 'last-event-id': String(seen.at(-1)!.seq) },
    );
    expect(resumed.status).toBe(200);
    let killedAt = 0;
    let ended: Frame | undefined;
    let done = false;
    for await (const frame of frames(resumed)) {
      if (frame === '[DONE]') {
        done = true;
        break;
      }
      if (frame.type === 'thread') continue;
      if (frame.type === 'error') ended = frame;
      else seen.push(frame);
      if (!killedAt && frame.type === 'event') {
        a.child.kill('SIGKILL');
        killedAt = performance.now();
      }
    }
    const waited = performance.now() - killedAt;
    expect(done).toBe(true);
    expect(ended?.data.code).toBe('turn.interrupted');
    // The lease (1.5 s) lapses, a sweep (every lease) ends the turn, the follower hears it:
    // three leases at most, and a margin for two processes on a loaded machine.
    expect(waited).toBeLessThan(3 * 1_500 + 4_000);
    const seqs = seen.map((f) => f.seq!);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    // What was said before the kill is kept, marked as interrupted.
    const said = seen.map((f) => f.data.text).join('');
    const transcript = (await (await fetch(`${b.base}/messaging/v1/threads/${threadId}/messages`, { headers: auth })).json()) as Array<{
      text: string;
    }>;
    expect(transcript[0]!.text).toBe(ask.text);
    expect(transcript[1]!.text.startsWith(said.trim())).toBe(true);
  }, 60_000);

  it('resumes on B, over a WebSocket session, a turn A runs', async () => {
    const a = await instance();
    const b = await instance();
    const words = Array.from({ length: 30 }, (_, i) => `s${i}`);
    const auth = await slowKey(a.base, words, 60);
    const ask = { text: 'Over a socket', user_id: 'visitor-3' };
    const { threadId, seen } = await readThenDrop(await post(a.base, '/messaging/v1/messages/stream', ask, auth), 4);
    const socket = new WebSocket(`${b.base.replace(/^http/, 'ws')}/messaging/v1/session`, { headers: { origin: b.base } });
    const incoming: Array<Frame | { type: 'ready' | 'done' | 'ping' }> = [];
    let heard: () => void = () => {};
    socket.on('message', (data) => {
      incoming.push(JSON.parse(String(data)) as Frame);
      heard();
    });
    const next = async (): Promise<Frame | { type: string }> => {
      while (!incoming.length) await new Promise<void>((resolve) => (heard = resolve));
      return incoming.shift()!;
    };
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'auth', token: auth['authorization']!.slice('Bearer '.length) }));
    expect((await next()).type).toBe('ready');
    socket.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: seen.at(-1)!.seq, ...ask }));
    for (let frame = await next(); frame.type !== 'done'; frame = await next()) {
      if (frame.type !== 'thread' && frame.type !== 'ping') seen.push(frame as Frame);
    }
    socket.close();
    const seqs = seen.map((f) => f.seq!);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    expect(
      seen
        .filter((f) => f.type === 'event')
        .map((f) => f.data.text)
        .join(''),
    ).toBe(words.join(' '));
    expect(seen.at(-1)!.type).toBe('message');
  }, 60_000);

  it('joins on B the turn A runs for a send with the same Idempotency-Key, never running it twice', async () => {
    const a = await instance();
    const b = await instance();
    const words = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const { publishable_key: key } = (await (
      await post(a.base, '/__demo/keys', { paceMs: 60, replies: [{ text: words.join(' ') }] })
    ).json()) as {
      publishable_key: string;
    };
    const { access_token: token } = (await (await post(a.base, '/management/v1/auth/token', { publishable_key: key })).json()) as {
      access_token: string;
    };
    const headers = { authorization: `Bearer ${token}`, 'idempotency-key': '"send-once-across"' };
    const ask = { text: 'Only once, please', user_id: 'visitor-4' };
    // The first try's stream, read until its turn has begun (and its key is kept), then lost.
    for await (const frame of frames(await post(a.base, '/messaging/v1/messages/stream', ask, headers))) {
      if (frame !== '[DONE]' && frame.type === 'event') break;
    }
    // The retry lands on B, as a REST send: it answers with the one turn's reply once it ends.
    const retry = await post(b.base, '/messaging/v1/messages', ask, headers);
    expect(retry.status).toBe(200);
    const answer = (await retry.json()) as { thread_id: string; message: { text: string } };
    expect(answer.message.text).toBe(words.join(' '));
    // One turn in the shared transcript: B ran none of its own (each process counts only its own turns).
    const transcript = (await (await fetch(`${b.base}/messaging/v1/threads/${answer.thread_id}/messages`, { headers })).json()) as Array<{
      text: string;
    }>;
    expect(transcript.map((m) => m.text)).toEqual([ask.text, words.join(' ')]);
  }, 60_000);

  it('runs one turn for a key sent to A and to B at the same moment', async () => {
    const a = await instance();
    const b = await instance();
    const auth = await slowKey(a.base, ['one', 'two', 'three'], 20);
    const asks = Array.from({ length: 20 }, (_, i) => ({
      text: `At once ${i}`,
      user_id: 'visitor-5',
      key: `"at-once-${i}-${Date.now()}"`,
    }));
    const answers = await Promise.all(
      asks.map(({ key, ...ask }) =>
        Promise.all(
          [a, b].map(async (server) => {
            const res = await post(server.base, '/messaging/v1/messages', ask, { ...auth, 'idempotency-key': key });
            expect(res.status).toBe(200);
            return ((await res.json()) as { message: { id: string } }).message.id;
          }),
        ),
      ),
    );
    // Each key's two answers are one turn's, and the database holds one turn a key.
    for (const [onA, onB] of answers) expect(onB).toBe(onA);
    const db = await openDb(url!, { schema });
    try {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM turns WHERE user_text LIKE 'At once %'`);
      expect(rows[0]!.n).toBe(asks.length);
    } finally {
      await db.close();
    }
  }, 60_000);
});
