import { describe, expect, it, vi } from 'vitest';
import { createReferenceServer } from '../src/app.js';
import { keepKey, keyedTurn } from '../src/messaging/idempotency.js';
import type { KeyRecord } from '../src/store/store.js';
import type { Turn } from '../src/messaging/turn.js';

/**
 * The reference server's side of docs/protocol.md "A send and a reload": requests that
 * carry one `Idempotency-Key` are one message. Driven through `app.fetch`, in Node.
 */
const ORIGIN = 'http://reference.test';
const KEY = 'k'.repeat(32);
const BODY = { text: 'Where is my order?', user_id: 'visitor-1' };

async function service(plan: Record<string, unknown> = {}) {
  const { app } = createReferenceServer({ faults: true, paceMs: 0, allowedHosts: ['reference.test'] });
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

  it("a key pushed out of the registry still finds its turn while that is its thread's latest (a long turn on a busy key)", async () => {
    const s = await service();
    const first = await s.stream(BODY, keyed());
    // A thousand other keys since (resumes for keys never seen: each spends one).
    for (let i = 0; i < 1_000; i++) await s.stream(BODY, { ...keyed(`other-${i}`), 'last-event-id': '0' });
    const resumed = await s.stream({ ...BODY, thread_id: first.threadId }, { ...keyed(), 'last-event-id': '0' });
    expect(resumed).toMatchObject({ status: 200, threadId: first.threadId, reply: 'On its way.' });
    // Without its thread the key is one the service no longer knows.
    expect(await s.stream(BODY, { ...keyed(), 'last-event-id': '0' })).toMatchObject({ status: 409, code: 'turn.not_received' });
  });

  it('keeps a key 15 minutes and at most 1,000 per publishable key, the oldest going first', () => {
    vi.useFakeTimers();
    try {
      const owner = {} as KeyRecord;
      const turn = {} as Turn;
      keepKey(owner, 'old', BODY, turn);
      vi.advanceTimersByTime(14 * 60_000);
      expect(keyedTurn(owner, 'old', BODY)).toBe(turn);
      vi.advanceTimersByTime(60_000);
      expect(keyedTurn(owner, 'old', BODY)).toBeUndefined();
      for (let i = 0; i <= 1_000; i++) keepKey(owner, `key-${i}`, BODY, i ? turn : null);
      expect(keyedTurn(owner, 'key-0', BODY)).toBeUndefined();
      expect(keyedTurn(owner, 'key-1', BODY)).toBe(turn);
      expect(keyedTurn(owner, 'key-1000', BODY)).toBe(turn);
    } finally {
      vi.useRealTimers();
    }
  });
});
