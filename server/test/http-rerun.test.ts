import { describe, expect, it } from 'vitest';
import type { Message, SendMessageResponse } from '@agent-chat/wire';
import { DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { envelope, reference } from './support.js';

/**
 * `POST /messaging/v1/threads/{threadId}/rerun`: a branched thread with the history before
 * the interaction and the turn run again, pinned to a version if asked, in Node through
 * `app.fetch` (moved from the browser suite, issue #38 item 8: nothing here needs a page).
 */

/** A server, a minted key (paced at 0) and a conversation of `texts` by user `u-r` on one thread. */
async function conversation(texts: string[]) {
  const ref = await reference();
  const { key, token } = await ref.mint({ paceMs: 0 });
  let threadId: string | undefined;
  const replies: Message[] = [];
  for (const text of texts) {
    const body = await ref.send(token, text, threadId, 'u-r');
    threadId = body.thread_id;
    replies.push(body.message as Message);
  }
  const transcript = (thread: string) => ref.json<Message[]>(`/messaging/v1/threads/${thread}/messages`, { token });
  return { ref, key, token, threadId: threadId!, replies, transcript };
}

describe('reference server: rerun', () => {
  it('branches a new thread: history before the interaction plus the re-run turn; source untouched', async () => {
    const { ref, key, token, threadId, replies, transcript } = await conversation(['hello', 'show me jackets', 'compare backpacks']);
    const before = await transcript(threadId);

    const res = await ref.call(`/messaging/v1/threads/${threadId}/rerun`, {
      token,
      body: { interaction_id: replies[1]!.id, text: 'show me running shoes' },
    });
    expect(res.status).toBe(200);
    const { thread_id, message } = (await res.json()) as SendMessageResponse;
    expect(thread_id).toMatch(/^[0-9a-f]{24}$/);
    expect(thread_id).not.toBe(threadId);
    expect(message.text).toMatch(/running shoes/i);
    expect(message.id).not.toBe(replies[1]!.id);

    const branch = await transcript(thread_id);
    expect(branch.map((m) => m.text).slice(0, 3)).toEqual(['hello', replies[0]!.text, 'show me running shoes']);
    expect(branch).toHaveLength(4);
    expect(branch[3]).toEqual(message);
    expect(branch[2]!.id).toBe(message.id);
    expect(branch[2]!.sender).toEqual({ type: 'user', id: 'u-r' });

    expect(await transcript(threadId)).toEqual(before);
    expect((await ref.stats(key)).turnsRun).toBe(4);
  });

  it('attributes the rerun to user_id when given, and continues the branch like any thread', async () => {
    const { ref, token, threadId, replies, transcript } = await conversation(['hello']);
    const { thread_id } = await ref.json<SendMessageResponse>(`/messaging/v1/threads/${threadId}/rerun`, {
      token,
      body: { interaction_id: replies[0]!.id, text: 'hi', user_id: 'u-other' },
    });
    const branch = await transcript(thread_id);
    expect(branch[0]!.sender).toEqual({ type: 'user', id: 'u-other' });
    const next = await ref.call('/messaging/v1/messages', { token, body: { text: 'more', user_id: 'u-other', thread_id } });
    expect(next.status).toBe(200);
  });

  it('pins a version by id or tag; unknown versions are 404, a mismatch 422', async () => {
    const { ref, key, token, threadId, replies } = await conversation(['hello']);
    // Each key's agent has versions of its own: their ids come from the management surface.
    const login = await ref.json<{ access_token: string; agent_id: string }>('/management/v1/auth/login', {
      headers: { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY },
      body: { publishable_key: key },
    });
    const { results } = await ref.json<{ results: Array<{ id: string; tag: string }> }>(
      `/management/v1/agents/${login.agent_id}/versions`,
      {
        token: login.access_token,
      },
    );
    const [liveId, previewId] = [results.find((v) => v.tag === 'v1.0')!.id, results.find((v) => v.tag === 'v1.1-preview')!.id];
    const rerun = (extra: Record<string, unknown>) =>
      ref.call(`/messaging/v1/threads/${threadId}/rerun`, { token, body: { interaction_id: replies[0]!.id, text: 'hello', ...extra } });

    const preview = (await (await rerun({ version_tag: 'v1.1-preview' })).json()) as SendMessageResponse;
    expect(preview.message.text).toContain('v1.1-preview');
    const live = (await (await rerun({})).json()) as SendMessageResponse;
    expect(live.message.text).not.toContain('v1.1-preview');
    expect((await rerun({ version_id: previewId })).status).toBe(200);
    expect((await rerun({ version_id: liveId, version_tag: 'v1.0' })).status).toBe(200);

    await envelope(await rerun({ version_tag: 'v9.9' }), 404, 'not_found');
    await envelope(await rerun({ version_id: 'ffffffffffffffffffffffff' }), 404, 'not_found');
    const bad = await envelope(await rerun({ version_id: 'v1' }), 422);
    expect(bad.details![0]!.field).toBe('version_id');
    const mismatch = await envelope(await rerun({ version_id: liveId, version_tag: 'v1.1-preview' }), 422);
    expect(mismatch.details![0]!.field).toBe('version_tag');
  });

  it('validates: agent_id, empty text, malformed ids, unknown thread and interaction', async () => {
    const { ref, key, token, threadId, replies } = await conversation(['hello']);
    const id = replies[0]!.id;
    const post = (thread: string, body: unknown) => ref.call(`/messaging/v1/threads/${thread}/rerun`, { token, body });

    let e = await envelope(await post(threadId, { interaction_id: id, text: 'x', agent_id: id }), 422, 'validation_error');
    expect(e.details!.map((d) => d.field)).toEqual(['agent_id']);
    e = await envelope(await post(threadId, { interaction_id: id, text: '' }), 422);
    expect(e.details!.map((d) => d.field)).toEqual(['text']);
    e = await envelope(await post(threadId, { interaction_id: 'abc', text: 'x' }), 422);
    expect(e.details!.map((d) => d.field)).toEqual(['interaction_id']);
    e = await envelope(await post('not-hex', { interaction_id: id, text: 'x' }), 422);
    expect(e.details!.map((d) => d.field)).toEqual(['thread_id']);
    await envelope(await post('0123456789abcdef01234567', { interaction_id: id, text: 'x' }), 404, 'not_found');
    await envelope(await post(threadId, { interaction_id: '0123456789abcdef01234567', text: 'x' }), 404, 'not_found');
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });
});
