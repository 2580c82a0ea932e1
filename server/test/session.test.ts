import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createReferenceServer, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { testDb } from './support.js';

/**
 * The WebSocket session's resume attaches only to its own turn (issue #45, item 5): the
 * socket whose token asked it, or one that names the question and its user as they were
 * asked (another tab); anyone else who knows the thread's id gets `409`, as over SSE.
 */

let servers: ServerType[] = [];
let closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  // The turns still running end (as interrupted) before the test file's database closes.
  await Promise.all(closing.map((close) => close()));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
  closing = [];
});

type Frame = { type: string; seq?: number; data?: { thread_id?: string; code?: string; status?: number; text?: string } };

async function listening(plan: Record<string, unknown> = {}) {
  const reference = await createReferenceServer({ faults: true, organizationApiKey: DEV_ORGANIZATION_API_KEY, db: await testDb() });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: reference.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  servers.push(server);
  closing.push(() => reference.close());
  const sessions = reference.attachSessions(server as never);
  const base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async <T>(path: string, body: unknown) =>
    (await (
      await fetch(`http://${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json()) as T;
  const { publishable_key: key } = await post<{ publishable_key: string }>('/__demo/keys', {
    paceMs: 60,
    replies: [{ text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') }],
    ...plan,
  });
  const token = async () => (await post<{ access_token: string }>('/management/v1/auth/token', { publishable_key: key })).access_token;
  /** A socket that sent its `auth` frame: its first answer, and how it closed if it did. */
  const attempt = async (accessToken: string) => {
    const ws = new WebSocket(`ws://${base}/messaging/v1/session`);
    await new Promise((resolve) => ws.once('open', resolve));
    const first = new Promise<Frame>((resolve) => ws.once('message', (raw) => resolve(JSON.parse(raw.toString()) as Frame)));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ type: 'auth', token: accessToken }));
    return { ws, first: await first, closed };
  };
  /** An authenticated socket, and its frames as they come. */
  const socket = async (accessToken: string) => {
    const ws = new WebSocket(`ws://${base}/messaging/v1/session`);
    const frames: Frame[] = [];
    const waiters: Array<() => void> = [];
    ws.on('message', (raw) => {
      frames.push(JSON.parse(raw.toString()) as Frame);
      for (const wake of waiters.splice(0)) wake();
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token: accessToken }));
    let read = 0;
    const next = async (): Promise<Frame> => {
      while (read >= frames.length) await new Promise<void>((resolve) => waiters.push(resolve));
      return frames[read++]!;
    };
    expect(await next()).toEqual({ type: 'ready' });
    return { ws, next };
  };
  return { token, socket, attempt, sessions };
}

describe('a WebSocket resume', () => {
  it('attaches to its own turn only: its token, or its question and user as asked', async () => {
    const { token, socket, sessions } = await listening();
    const tokenA = await token();
    const a = await socket(tokenA);
    const ask = { text: 'Tell me a story', user_id: 'visitor-a' };
    a.ws.send(JSON.stringify({ type: 'message', data: ask }));
    const thread = await a.next();
    const threadId = thread.data!.thread_id!;
    await a.next();

    // Another visitor who learnt the thread's id.
    const b = await socket(await token());
    b.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0 }));
    expect(await b.next()).toMatchObject({ type: 'error', data: { status: 409, code: 'stream.not_resumable' } });
    b.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0, user_id: 'visitor-a', text: 'Another question' }));
    expect(await b.next()).toMatchObject({ type: 'error', data: { status: 409, code: 'stream.not_resumable' } });

    // Another tab of the same visitor: its own token, the question as asked.
    b.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0, ...ask }));
    expect(await b.next()).toEqual(thread);
    expect((await b.next()).type).toBe('event');

    // The page that asked, on a new socket with its token: nothing more needed.
    const again = await socket(tokenA);
    again.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0 }));
    expect(await again.next()).toEqual(thread);
    for (const s of [a, b, again]) s.ws.terminate();
    sessions.close();
  });

  it('holds at most 8 sessions per token and the key’s number per key; a closed one gives its place back', async () => {
    const { token, attempt, sessions } = await listening({ limits: { sessions: 10 } });
    const one = await token();
    const tried = [];
    for (let i = 0; i < 12; i++) tried.push(await attempt(one));
    expect(tried.slice(0, 8).every((t) => t.first.type === 'ready')).toBe(true);
    for (const refused of tried.slice(8)) {
      expect(refused.first).toMatchObject({ type: 'error', data: { status: 429, code: 'session.too_many' } });
      expect(await refused.closed).toBe(4429);
    }
    // Another token of the key: the key's last two places.
    const other = await token();
    const more = [await attempt(other), await attempt(other), await attempt(other)];
    expect(more.map((t) => t.first.type)).toEqual(['ready', 'ready', 'error']);
    tried[0]!.ws.close();
    await tried[0]!.closed;
    // Until the server has seen that close too (each try is a round trip of its own).
    let again = await attempt(other);
    for (let i = 0; again.first.type !== 'ready' && i < 20; i++) {
      await again.closed;
      again = await attempt(other);
    }
    expect(again.first.type).toBe('ready');
    for (const t of [...tried, ...more, again]) t.ws.terminate();
    sessions.close();
  });

  it('takes each session from its key’s rate', async () => {
    const { token, attempt, sessions } = await listening({ limits: { perSecond: 0.01, burst: 3 } });
    // The exchange was the first of the three.
    const one = await token();
    const tried = [await attempt(one), await attempt(one), await attempt(one)];
    expect(tried.map((t) => t.first.type)).toEqual(['ready', 'ready', 'error']);
    expect(tried[2]!.first).toMatchObject({ data: { status: 429, code: 'rate_limited' } });
    for (const t of tried) t.ws.terminate();
    sessions.close();
  });
});
