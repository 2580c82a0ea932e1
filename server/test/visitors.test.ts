import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createReferenceServer, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { envelope, reference, testDb } from './support.js';

/**
 * Visitors on one publishable key (issue #45, item 5): a token exchanged for a `user_id`
 * opens only the threads of no visitor or of that one, and speaks only for that user. On
 * the shared demo key, another visitor who learnt a thread's id reads nothing of it, posts
 * nothing into it, branches nothing from it, binds no phone to it (docs/protocol.md "Visitors").
 */

const TOKEN = '/management/v1/auth/token';
const DEMO_KEY = 'pk_demo_shop';

describe('visitors on the demo key', () => {
  it('open their own threads, from any of their tokens, and no one else’s', async () => {
    const ref = await reference();
    const exchange = async (user?: string) =>
      (await ref.json<{ access_token: string }>(TOKEN, { body: { publishable_key: DEMO_KEY, ...(user ? { user_id: user } : {}) } }))
        .access_token;
    const alice = await exchange('anon_alice');
    expect(decodeJwt(alice)['uid']).toBe('anon_alice');
    const { thread_id: threadId, message } = await ref.send(alice, 'Which tent for two?', undefined, 'anon_alice');
    const transcript = `/messaging/v1/threads/${threadId}/messages`;

    // Another tab of hers, or her next token: the same visitor.
    const again = await exchange('anon_alice');
    expect(await ref.json<unknown[]>(transcript, { token: again })).toHaveLength(2);
    await ref.send(again, 'And for three?', threadId, 'anon_alice');

    const mallory = await exchange('anon_mallory');
    const anyone = await exchange();
    for (const [token, user] of [
      [mallory, 'anon_mallory'],
      [anyone, 'anon_alice'],
    ] as const) {
      const ask = { text: 'What did she ask?', user_id: user, thread_id: threadId };
      await envelope(await ref.call(transcript, { token }), 404, 'not_found');
      await envelope(await ref.call('/messaging/v1/messages', { token, body: ask }), 404, 'not_found');
      await envelope(await ref.call('/messaging/v1/messages/stream', { token, body: ask }), 404, 'not_found');
      await envelope(
        await ref.call('/messaging/v1/messages/stream', { token, body: ask, headers: { 'last-event-id': '0' } }),
        409,
        'stream.not_resumable',
      );
      await envelope(
        await ref.call(`/messaging/v1/threads/${threadId}/rerun`, { token, body: { interaction_id: message.id, text: 'Mine now' } }),
        404,
        'not_found',
      );
      await envelope(
        await ref.call('/messaging/v1/channels/sms/threads', {
          token,
          body: { user_id: user, phone_number: '+15555550100', thread_id: threadId },
        }),
        404,
        'not_found',
      );
    }
    // Her question's Idempotency-Key, replayed by a token of no visitor speaking as her, joins nothing.
    const keyed = await ref.call('/messaging/v1/messages', {
      token: alice,
      body: { text: 'Keyed', user_id: 'anon_alice', thread_id: threadId },
      headers: { 'idempotency-key': 'alice-key-1' },
    });
    expect(keyed.status).toBe(200);
    const replay = { text: 'Keyed', user_id: 'anon_alice', thread_id: threadId };
    for (const path of ['/messaging/v1/messages', '/messaging/v1/messages/stream']) {
      await envelope(
        await ref.call(path, { token: anyone, body: replay, headers: { 'idempotency-key': 'alice-key-1' } }),
        404,
        'not_found',
      );
    }
    // Nor can a visitor's token speak as her.
    const posing = await ref.call('/messaging/v1/messages', {
      token: mallory,
      body: { text: 'Hi', user_id: 'anon_alice', thread_id: threadId },
    });
    expect((await envelope(posing, 403, 'auth.user_mismatch')).details?.[0]?.field).toBe('user_id');
    await envelope(await ref.call(TOKEN, { body: { publishable_key: DEMO_KEY, user_id: '' } }), 422, 'validation_error');

    // Her branch is hers too.
    const branch = await ref.json<{ thread_id: string }>(`/messaging/v1/threads/${threadId}/rerun`, {
      token: alice,
      body: { interaction_id: message.id, text: 'Which tent for two, under 2 kg?' },
    });
    await envelope(await ref.call(`/messaging/v1/threads/${branch.thread_id}/messages`, { token: mallory }), 404, 'not_found');
    expect(await ref.json<unknown[]>(`/messaging/v1/threads/${branch.thread_id}/messages`, { token: again })).toHaveLength(2);

    // Nothing any of them tried reached her thread. The organization's login session reads it,
    // as management reads every thread.
    const login = await ref.json<{ access_token: string }>('/management/v1/auth/login', {
      headers: { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY },
      body: { publishable_key: DEMO_KEY },
    });
    expect(await ref.json<unknown[]>(transcript, { token: login.access_token })).toHaveLength(6);
  });

  it('leave a thread made by a token of no visitor open to every token of its key, as before', async () => {
    const ref = await reference();
    const plain = await ref.token(DEMO_KEY);
    const { thread_id: threadId } = await ref.send(plain, 'Hello', undefined, 'anon_alice');
    const visitor = (await ref.json<{ access_token: string }>(TOKEN, { body: { publishable_key: DEMO_KEY, user_id: 'anon_alice' } }))
      .access_token;
    expect(await ref.json<unknown[]>(`/messaging/v1/threads/${threadId}/messages`, { token: visitor })).toHaveLength(2);
    expect(await ref.json<unknown[]>(`/messaging/v1/threads/${threadId}/messages`, { token: await ref.token(DEMO_KEY) })).toHaveLength(2);
  });
});

describe('visitors over the WebSocket session', () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  it('post into and resume only their own threads', async () => {
    const reference = await createReferenceServer({ faults: true, organizationApiKey: DEV_ORGANIZATION_API_KEY, db: await testDb() });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: reference.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const sessions = reference.attachSessions(server as never);
    close = async () => {
      sessions.close();
      await reference.close();
      await new Promise((resolve) => server.close(resolve));
    };
    const base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = async <T>(path: string, body: unknown) =>
      (await (
        await fetch(`http://${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as T;
    const { publishable_key: key } = await post<{ publishable_key: string }>('/__demo/keys', {
      paceMs: 60,
      replies: [{ text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') }],
    });
    const exchange = async (user: string) =>
      (await post<{ access_token: string }>(TOKEN, { publishable_key: key, user_id: user })).access_token;
    const socket = async (token: string) => {
      const ws = new WebSocket(`ws://${base}/messaging/v1/session`);
      const frames: Array<{ type: string; data?: { thread_id?: string; code?: string; status?: number } }> = [];
      const waiters: Array<() => void> = [];
      ws.on('message', (raw) => {
        frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]);
        for (const wake of waiters.splice(0)) wake();
      });
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ type: 'auth', token }));
      let read = 0;
      const next = async () => {
        while (read >= frames.length) await new Promise<void>((resolve) => waiters.push(resolve));
        return frames[read++]!;
      };
      expect(await next()).toEqual({ type: 'ready' });
      return { ws, next };
    };

    const alice = await socket(await exchange('anon_alice'));
    const ask = { text: 'Tell me a story', user_id: 'anon_alice' };
    alice.ws.send(JSON.stringify({ type: 'message', data: ask }));
    const threadId = (await alice.next()).data!.thread_id!;

    const mallory = await socket(await exchange('anon_mallory'));
    // Her question as she asked it, which resumes her turn from another tab of hers.
    mallory.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0, ...ask }));
    expect(await mallory.next()).toMatchObject({ type: 'error', data: { status: 403, code: 'auth.user_mismatch' } });
    mallory.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0, text: ask.text, user_id: 'anon_mallory' }));
    expect(await mallory.next()).toMatchObject({ type: 'error', data: { status: 409, code: 'stream.not_resumable' } });
    mallory.ws.send(JSON.stringify({ type: 'message', data: { text: 'Hi', user_id: 'anon_mallory', thread_id: threadId } }));
    expect(await mallory.next()).toMatchObject({ type: 'error', data: { status: 404, code: 'not_found' } });

    // Another tab of hers resumes it.
    const tab = await socket(await exchange('anon_alice'));
    tab.ws.send(JSON.stringify({ type: 'resume', thread_id: threadId, last_event_id: 0, ...ask }));
    expect(await tab.next()).toMatchObject({ type: 'thread', data: { thread_id: threadId } });
    for (const s of [alice, mallory, tab]) s.ws.terminate();
  });
});
