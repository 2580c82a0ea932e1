import { testDb } from './support.js';
import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../src/app.js';
import { MAX_KEYS, SqlIdempotencyStore, WINDOW_MS } from '../src/store/idempotency.js';

/**
 * The reference server's side of docs/protocol.md "A send and a reload": requests that
 * carry one `Idempotency-Key` are one message. Driven through `app.fetch`, in Node.
 */
const ORIGIN = 'http://reference.test';
const KEY = 'k'.repeat(32);
const BODY = { text: 'Where is my order?', user_id: 'visitor-1' };

async function service(plan: Record<string, unknown> = {}) {
  const db = await testDb();
  const { app } = await createReferenceServer({ faults: true, paceMs: 0, allowedHosts: ['reference.test'], db });
  const call = (path: string, init: RequestInit = {}) => app.fetch(new Request(ORIGIN + path, init));
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const minted = (await (await json('/__demo/keys', { replies: [{ text: 'On its way.' }], ...plan })).json()) as {
    publishable_key: string;
  };
  const { access_token: token } = (await (await json('/management/v1/auth/token', { publishable_key: minted.publishable_key })).json()) as {
    access_token: string;
  };
  const auth = { authorization: `Bearer ${token}` };
  return {
    db,
    publishableKey: minted.publishable_key,
    /** A stream request: its status and `data:` payloads (the `thread` frame's id, the text, the error code). */
    async stream(body: object, headers: Record<string, string> = {}) {
      const res = await json('/messaging/v1/messages/stream', body, { ...auth, ...headers });
      const text = await res.text();
      const frames = [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!).filter((d) => d !== '[DONE]');
      const parsed = frames.map((f) => JSON.parse(f) as { type: string; data: { thread_id?: string; text?: string } });
      const code = res.ok ? null : (JSON.parse(text) as { error: { code: string } }).error.code;
      return {
        status: res.status,
        code,
        threadId: parsed.find((f) => f.type === 'thread')?.data.thread_id ?? null,
        reply: parsed.find((f) => f.type === 'message')?.data.text ?? null,
      };
    },
    async send(body: object, headers: Record<string, string> = {}) {
      const res = await json('/messaging/v1/messages', body, { ...auth, ...headers });
      return { status: res.status, body: (await res.json()) as { thread_id?: string; message?: { id: string }; error?: { code: string } } };
    },
    async turnsRun(): Promise<number> {
      return ((await (await call(`/__demo/keys/${minted.publishable_key}/stats`)).json()) as { turnsRun: number }).turnsRun;
    },
  };
}

const keyed = (key = KEY) => ({ 'idempotency-key': `"${key}"` });

describe('the reference server and Idempotency-Key', () => {
  it('a request sent again with its key joins the turn it started: one turn, the same thread, the whole reply', async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    const again = await s.stream(BODY, keyed());
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await s.turnsRun()).toBe(1);
  });

  it('a resume by key finds a turn whose thread the client never learnt (no thread_id, Last-Event-ID: 0)', async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    const resumed = await s.stream(BODY, { ...keyed(), 'last-event-id': '0' });
    expect(resumed).toMatchObject({ status: 200, threadId: first.threadId, reply: 'On its way.' });
    expect(await s.turnsRun()).toBe(1);
  });

  it('a resume for a key it never saw: 409 turn.not_received, and the key is spent (the request, arriving late, does not run)', async () => {
    const s = await service();
    expect(await s.stream(BODY, { ...keyed(), 'last-event-id': '0' })).toMatchObject({ status: 409, code: 'turn.not_received' });
    expect(await s.stream(BODY, keyed())).toMatchObject({ status: 409, code: 'turn.not_received' });
    expect((await s.send(BODY, keyed())).status).toBe(409);
    expect(await s.turnsRun()).toBe(0);
  });

  it('REST: sent twice with one key, one turn and the same answer; a keyed stream resume joins it too', async () => {
    const s = await service();
    const first = await s.send(BODY, keyed());
    const again = await s.send(BODY, keyed());
    expect(again.body).toEqual(first.body);
    const resumed = await s.stream(BODY, { ...keyed(), 'last-event-id': '0' });
    expect(resumed).toMatchObject({ status: 200, threadId: first.body.thread_id, reply: 'On its way.' });
    expect(await s.turnsRun()).toBe(1);
  });

  it('a key names one message of one user: another text or another user is refused, not joined', async () => {
    const s = await service();
    await s.stream(BODY, keyed());
    expect(await s.stream({ ...BODY, text: 'Something else' }, keyed())).toMatchObject({ status: 422, code: 'idempotency.key_reused' });
    expect(await s.stream({ ...BODY, user_id: 'visitor-2' }, keyed())).toMatchObject({ status: 422, code: 'idempotency.key_reused' });
    expect(await s.turnsRun()).toBe(1);
  });

  it("keys are a publishable key's own: another site's same key is another message", async () => {
    const a = await service();
    const b = await service();
    await a.stream(BODY, keyed());
    expect(await b.stream(BODY, { ...keyed(), 'last-event-id': '0' })).toMatchObject({ status: 409, code: 'turn.not_received' });
    expect(await b.turnsRun()).toBe(0);
  });

  it('without a key nothing changes; a malformed one is a validation error', async () => {
    const s = await service();
    await s.stream(BODY);
    await s.stream(BODY);
    expect(await s.turnsRun()).toBe(2);
    expect(await s.stream(BODY, { 'idempotency-key': '"a b"' })).toMatchObject({ status: 422, code: 'validation_error' });
    expect(await s.stream(BODY, { 'idempotency-key': 'x'.repeat(256) })).toMatchObject({ status: 422 });
  });

  it("a key pushed out still finds its turn while that is its thread's latest (a long turn on a busy key)", async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    // A thousand other turns since, each with a key of its own.
    const keys = new SqlIdempotencyStore(s.db);
    for (let i = 0; i < MAX_KEYS; i++) {
      await keys.put(s.publishableKey, `other-${i}`, {
        caller: '',
        userId: 'u',
        text: 't',
        threadId: null,
        turnId: `t${i}`,
        at: Date.now(),
      });
    }
    const resumed = await s.stream({ ...BODY, thread_id: first.threadId }, { ...keyed(), 'last-event-id': '0' });
    expect(resumed).toMatchObject({ status: 200, threadId: first.threadId, reply: 'On its way.' });
    // Without its thread the key is one the service no longer knows.
    expect(await s.stream(BODY, { ...keyed(), 'last-event-id': '0' })).toMatchObject({ status: 409, code: 'turn.not_received' });
  });

  it('a flood of resumes for keys never seen does not push out the key of a turn that ran (a reload asks without its thread)', async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    // Cheap for anyone with the public key: each spends a key of its own.
    for (let i = 0; i < MAX_KEYS + 123; i++) await s.stream(BODY, { ...keyed(`cheap-${i}`), 'last-event-id': '0' });
    const reload = await s.stream(BODY, { ...keyed(), 'last-event-id': '0' });
    expect(reload).toMatchObject({ status: 200, threadId: first.threadId, reply: 'On its way.' });
    expect(await s.turnsRun()).toBe(1);
  }, 60_000);

  it('a key sent again naming another thread is refused, like one with another text', async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    const other = await s.stream({ ...BODY, text: 'another question' });
    expect(other.threadId).not.toBe(first.threadId);
    expect(await s.stream({ ...BODY, thread_id: other.threadId }, keyed())).toMatchObject({ status: 422, code: 'idempotency.key_reused' });
    expect(await s.stream({ ...BODY, thread_id: first.threadId }, keyed())).toMatchObject({ status: 200, threadId: first.threadId });
    expect(await s.turnsRun()).toBe(2);
  });

  it('keeps a key 15 minutes and at most 1,000 of each kind per publishable key: spent keys never push out keys of turns that ran', async () => {
    const keys = new SqlIdempotencyStore(await testDb());
    const t0 = Date.parse('2026-12-07T00:00:00Z');
    const entry = (turnId: string | null, at: number) => ({ caller: '', userId: 'u', text: 't', threadId: null, turnId, at });
    await keys.put('pk', 'old', entry('turn-old', t0));
    expect(await keys.get('pk', 'old', t0 + WINDOW_MS - 60_000)).toMatchObject({ turnId: 'turn-old' });
    expect(await keys.get('pk', 'old', t0 + WINDOW_MS)).toBeUndefined();

    // A victim's turns, then a flood of resumes with keys never seen (each spends its key).
    const t1 = t0 + WINDOW_MS + 1;
    for (let i = 0; i <= MAX_KEYS; i++) await keys.put('pk', `ran-${i}`, entry(`turn-${i}`, t1 + i));
    for (let i = 0; i < MAX_KEYS + 123; i++) await keys.put('pk', `spent-${i}`, entry(null, t1 + MAX_KEYS + 1 + i));
    const now = t1 + 2 * MAX_KEYS + 200;
    expect(await keys.get('pk', 'ran-0', now), 'the oldest past its kind’s bound').toBeUndefined();
    expect(await keys.get('pk', 'ran-1', now)).toMatchObject({ turnId: 'turn-1' });
    expect(await keys.get('pk', `ran-${MAX_KEYS}`, now)).toMatchObject({ turnId: `turn-${MAX_KEYS}` });
    expect(await keys.get('pk', 'spent-122', now)).toBeUndefined();
    expect(await keys.get('pk', 'spent-123', now)).toMatchObject({ turnId: null });
    // Another publishable key's are its own.
    expect(await keys.get('other', 'ran-1', now)).toBeUndefined();
  }, 60_000);
});
