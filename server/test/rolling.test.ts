import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/store/db.js';
import { freePort, startNginx, type Nginx } from './nginx.js';
import { frames, sharedDatabase, type Started } from './processes.js';

/**
 * A rolling restart under load (issue #39, item 5): two instances on one PostgreSQL behind
 * a real nginx, 50 conversations each asking one question after another over SSE, as the
 * widget does (an Idempotency-Key per question; after a drop, a resume with `Last-Event-ID`
 * once the thread is known, else the same request again). Each instance in turn is stopped
 * with SIGTERM and started again. Every question gets its whole reply once, and the
 * database holds exactly the turns the conversations asked for: none lost, none run twice.
 */
const url = process.env['TEST_DATABASE_URL'];
const { schema, instance: started } = sharedDatabase(url, 'rolling');
const CONVERSATIONS = 50;
/** How long nginx leaves an instance alone after it could not connect to it (its default is 10 s). */
const FAIL_TIMEOUT_S = 2;
const WORDS = Array.from({ length: 12 }, (_, i) => `w${i}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const instance = (port: number): Promise<Started> => started({ PORT: String(port) });

/** Stops an instance as a deployment does (SIGTERM: running turns finish) and waits for it to exit. */
const stop = (server: Started): Promise<void> =>
  new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });

interface Asked {
  /** The reply as the conversation read it. */
  text: string;
  /** Connections it took: 1 when nothing got in the way. */
  connections: number;
  /** When its reply ended (performance.now()). */
  answeredAt: number;
  /** The longest wait for the next frame (from the question to its first, then between frames), ms. */
  longestPause: number;
  /** What got in the way, a line per connection that did not end the turn. */
  tries: string[];
}

/**
 * One question, asked as the widget asks it: the same body and key on every try; a resume
 * from the last seq once the `thread` frame named the thread; what was read before is never
 * read twice (frames at or below the last seq are the replay's).
 */
async function ask(
  lb: string,
  auth: Record<string, string>,
  body: { text: string; user_id: string; thread_id?: string },
): Promise<Asked & { threadId: string }> {
  const key = randomUUID();
  let threadId = body.thread_id ?? '';
  let lastSeq = 0;
  let resumable = false;
  let text = '';
  let last = performance.now();
  let longestPause = 0;
  const tries: string[] = [];
  for (let connection = 1; connection <= 40; connection++) {
    const headers: Record<string, string> = {
      ...auth,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'idempotency-key': key,
    };
    if (resumable) headers['last-event-id'] = String(lastSeq);
    let res: Response;
    try {
      res = await fetch(`${lb}/messaging/v1/messages/stream`, {
        method: 'POST',
        headers,
        body: JSON.stringify(threadId ? { ...body, thread_id: threadId } : body),
      });
    } catch (error) {
      tries.push(`fetch: ${String(error)}`);
      await sleep(100);
      continue;
    }
    // The widget's rule (src/client/stream.ts): before the thread is known, only what says it
    // was not taken is asked again (503 here: a stopping instance); once it is, a resume may
    // follow any failure. Anything else would be an error the visitor sees: the test fails.
    if (res.status === 503 || (resumable && (res.status === 502 || res.status === 504))) {
      tries.push(`${res.status} ${await res.text()}`);
      await sleep(Number(res.headers.get('retry-after') ?? 0.2) * 1000);
      continue;
    }
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    try {
      for await (const frame of frames(res)) {
        const now = performance.now();
        longestPause = Math.max(longestPause, now - last);
        last = now;
        if (frame === '[DONE]') return { threadId, text, connections: connection, answeredAt: now, longestPause, tries };
        if (frame.type === 'thread') {
          threadId = frame.data.thread_id!;
          resumable = true;
        } else if (frame.type === 'error') {
          throw new Error(`the turn failed: ${JSON.stringify(frame.data)}`);
        } else if (frame.seq! > lastSeq) {
          lastSeq = frame.seq!;
          if (frame.type === 'event') text += frame.data.text ?? '';
        }
      }
    } catch (error) {
      if (String(error).includes('the turn failed')) throw error;
      // The connection went (its instance stopped): resume.
      tries.push(`dropped: ${String(error)}`);
    }
    if (tries.length < connection) tries.push('ended without [DONE]');
    await sleep(50);
  }
  throw new Error(`no reply after 40 connections: ${body.text}: ${tries.slice(-6).join('; ')}`);
}

describe.skipIf(!url)('a rolling restart behind a load balancer', () => {
  let nginx: Nginx | undefined;
  afterAll(() => nginx?.stop());

  it('of both instances under 50 conversations loses no question and runs none twice', async () => {
    const ports = [await freePort(), await freePort()];
    const servers = [await instance(ports[0]!), await instance(ports[1]!)];
    // nginx sends nothing to an instance for `fail_timeout` after it failed to connect to it.
    nginx = await startNginx(
      ports.map((port) => ({ host: '127.0.0.1', port, params: `fail_timeout=${FAIL_TIMEOUT_S}s` })),
      // As docs/deploy.md has it: the request's own Host, not the group's name; and a request
      // an instance reset before answering (a stopping one's queue) tried on the other.
      { lb: 'proxy_set_header Host $host; proxy_next_upstream error non_idempotent;' },
    );
    const lb = `http://127.0.0.1:${nginx.ports['lb']}`;
    const post = async <T>(path: string, body: unknown) =>
      (await (
        await fetch(lb + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).json()) as T;
    const { publishable_key: key } = await post<{ publishable_key: string }>('/__demo/keys', {
      paceMs: 40,
      replies: [{ text: WORDS.join(' ') }],
      limits: { perSecond: 1_000, burst: 1_000, runningTurns: 200, threads: 1_000 },
    });

    let restarted = false;
    const conversation = async (n: number) => {
      const user = `visitor-${n}`;
      const { access_token: token } = await post<{ access_token: string }>('/management/v1/auth/token', {
        publishable_key: key,
        user_id: user,
      });
      const auth = { authorization: `Bearer ${token}` };
      const asked: Asked[] = [];
      let threadId: string | undefined;
      const next = async () => {
        const text = `question ${asked.length} of ${user}`;
        const done = await ask(lb, auth, { text, user_id: user, ...(threadId ? { thread_id: threadId } : {}) });
        threadId = done.threadId;
        asked.push(done);
      };
      // Questions one after another until both instances were restarted, then one more.
      while (!restarted) await next();
      await next();
      return { user, threadId: threadId!, asked, auth };
    };
    const running = Promise.all(Array.from({ length: CONVERSATIONS }, (_, n) => conversation(n)));

    /** From each instance's exit to its successor's start: only the other could answer then. */
    const downs: Array<[number, number]> = [];
    // Each instance in turn: stopped as a deployment stops it, started again on its port,
    // and given the time nginx takes to try it again (docs/deploy.md "A rolling restart").
    await sleep(1_500);
    for (const i of [0, 1]) {
      await stop(servers[i]!);
      const gone = performance.now();
      servers[i] = await instance(ports[i]!);
      downs.push([gone, performance.now()]);
      // Past nginx's fail_timeout with room to spare: on a loaded machine (a CI run with both
      // browsers beside it) a 1.5 s margin once left nginx with no live upstream when the
      // other instance stopped (502 "no live upstreams").
      await sleep(FAIL_TIMEOUT_S * 1000 + 4_000);
    }
    restarted = true;
    const conversations = await running.catch((error: unknown) => {
      throw new Error(`${String(error)}\nnginx said:\n${nginx!.log()}`);
    });

    // Every question got its whole reply, once.
    const all = conversations.flatMap((c) => c.asked);
    for (const reply of all) expect(reply.text).toBe(WORDS.join(' '));
    const resumedOrRetried = all.filter((a) => a.connections > 1).length;
    const longestPause = Math.max(...all.map((a) => a.longestPause));
    const worst = all.find((a) => a.longestPause === longestPause)!;

    console.log(
      `rolling restart: ${CONVERSATIONS} conversations, ${all.length} questions, ${resumedOrRetried} needed another connection; longest pause ${Math.round(longestPause)} ms (after: ${worst.tries.map((t) => t.slice(0, 60)).join('; ') || 'nothing'})`,
    );
    // The conversations went on while each instance was down: questions were answered then.
    for (const [from, to] of downs) expect(all.filter((a) => a.answeredAt > from && a.answeredAt < to).length).toBeGreaterThan(0);

    // Counted on the server: as many turns as questions, each completed, and each thread's
    // transcript holds its questions and replies once, in order.
    const db = await openDb(url!, { schema });
    try {
      const { rows } = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM turns GROUP BY status');
      expect(rows).toEqual([{ status: 'completed', n: all.length }]);
    } finally {
      await db.close();
    }
    for (const c of conversations) {
      const transcript = (await (await fetch(`${lb}/messaging/v1/threads/${c.threadId}/messages`, { headers: c.auth })).json()) as Array<{
        text: string;
      }>;
      expect(transcript.map((m) => m.text)).toEqual(c.asked.flatMap((_, i) => [`question ${i} of ${c.user}`, WORDS.join(' ')]));
    }
    for (const server of servers) await stop(server);
  }, 180_000);
});
