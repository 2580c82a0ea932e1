import { describe, expect, it } from 'vitest';
import type { Db } from '../src/store/db.js';
import { envelope, reference, testDb } from './support.js';

/**
 * What operators expect (issue #38, item 6): liveness and readiness under the health group,
 * a structured log line per request, and a graceful shutdown: no new turn once it starts,
 * running turns given their grace period, the rest ended as interrupted. In process, over
 * `app.fetch` (server/test/restart.test.ts sends the bin a real SIGTERM).
 */

async function read(
  res: Response,
): Promise<Array<{ type: string; data: { code?: string; text?: string; thread_id?: string } } | '[DONE]'>> {
  const text = await res.text();
  return [...text.matchAll(/^data: (.*)$/gm)].map((m) => (m[1] === '[DONE]' ? '[DONE]' : JSON.parse(m[1]!)));
}

describe('health', () => {
  it('is alive and ready without credentials, from any page, by address', async () => {
    const ref = await reference();
    const live = await ref.call('/health', { headers: { origin: 'https://anyone.example' } });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await ref.call('/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'embedded' });
  });

  it('is not ready, with the envelope, while the database does not answer; alive all the same', async () => {
    const db = await testDb();
    let down = false;
    const refuse = () => Promise.reject(new Error('connection refused'));
    const flaky: Db = {
      ...db,
      query: (sql, params) => (down ? refuse() : db.query(sql, params)),
      transaction: (work) => (down ? refuse() : db.transaction(work)),
    };
    const ref = await reference({ db: flaky });
    down = true;
    const error = await envelope(await ref.call('/health/ready'), 503, 'not_ready');
    expect(error.message).toMatch(/connection refused/);
    expect((await ref.call('/health')).status).toBe(200);
    down = false;
    expect((await ref.call('/health/ready')).status).toBe(200);
  });
});

describe('the request log', () => {
  it('writes one record per request with its request id, status and time', async () => {
    const records: Array<Record<string, unknown>> = [];
    const ref = await reference({ log: (record) => records.push({ ...record }) });
    const res = await ref.call('/management/v1/auth/token?secret=not-logged', { body: { publishable_key: 'pk_demo_shop' } });
    await ref.call('/messaging/v1/welcome-message', { token: 'not-a-token' });
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      level: 'info',
      request_id: res.headers.get('x-request-id'),
      method: 'POST',
      path: '/management/v1/auth/token',
      status: 200,
    });
    expect(typeof records[0]!['duration_ms']).toBe('number');
    expect(Date.parse(records[0]!['time'] as string)).not.toBeNaN();
    expect(records[1]).toMatchObject({ level: 'warn', status: 401, path: '/messaging/v1/welcome-message' });
    expect(JSON.stringify(records)).not.toContain('not-logged');
  });
});

describe('a graceful shutdown', () => {
  it('admits no new turn, lets a turn that ends in time end, and ends the others as interrupted', async () => {
    const ref = await reference();
    const slow = await ref.mint({ paceMs: 100, replies: [{ text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ') }] });
    const quick = await ref.mint({ paceMs: 20, replies: [{ text: 'one two three four five' }] });
    const stream = (token: string, text: string) => ref.call('/messaging/v1/messages/stream', { token, body: { text, user_id: 'u' } });

    const long = await stream(slow.token, 'Tell me everything');
    const short = await stream(quick.token, 'Quickly');
    const stopping = ref.server.shutdown(1500);

    await envelope(await ref.call('/health/ready'), 503, 'not_ready');
    const refused = await stream(quick.token, 'One more?');
    await envelope(refused, 503, 'server.shutting_down');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('connection')).toBe('close');

    const shortFrames = await read(short);
    expect(shortFrames.at(-2)).toMatchObject({ type: 'message', data: { text: 'one two three four five' } });
    const longFrames = await read(long);
    expect(longFrames.at(-2)).toMatchObject({ type: 'error', data: { code: 'turn.interrupted' } });
    expect(longFrames.at(-1)).toBe('[DONE]');
    await stopping;

    // Recorded as interrupted, not left running: a server on the same data finds none to end.
    const threadId = (longFrames[0] as { data: { thread_id: string } }).data.thread_id;
    const after = await reference({ db: ref.db });
    expect(after.server.interrupted).toBe(0);
    const token = await after.token(slow.key);
    const transcript = await after.json<Array<{ text: string }>>(`/messaging/v1/threads/${threadId}/messages`, { token });
    expect(transcript.map((m) => m.text)).toEqual(['Tell me everything', expect.stringMatching(/^w0 w1[\s\S]*interrupted/)]);
  });
});

describe('what PostgreSQL cannot keep', () => {
  it('a NUL character in a body or a query is refused with the envelope, never a 500', async () => {
    const ref = await reference();
    const token = await ref.token('pk_demo_shop');
    const sent = await envelope(
      await ref.call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: '\u0000' } }),
      422,
      'validation_error',
    );
    expect(sent.details).toEqual([{ message: 'Must not contain NUL characters.', field: 'user_id' }]);
    const nested = await envelope(
      await ref.call('/messaging/v1/messages/stream', {
        token,
        body: { text: 'hi', user_id: 'u', agent_variables: { static: { name: 'a\u0000b' } } },
      }),
      422,
      'validation_error',
    );
    expect(nested.details![0]!.field).toBe('agent_variables.static.name');
    const listed = await envelope(
      await ref.call('/management/v1/threads?user_id=%00', { headers: { 'x-organization-api-key': 'org_dev_reference_server' } }),
      400,
      'validation_error',
    );
    expect(listed.details![0]!.field).toBe('user_id');
  });
});
