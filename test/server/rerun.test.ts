import { expect } from '@open-wc/testing';
import type { Message, SendMessageResponse } from '../../src/client/types.js';
import { keyStats, ORGANIZATION_API_KEY } from '../support/server.js';
import { call, expectEnvelope, json, session } from './helpers.js';

async function conversation(token: string, texts: string[]) {
  let threadId: string | undefined;
  const replies: Message[] = [];
  for (const text of texts) {
    const res = await call('/messaging/v1/messages', { token, body: { text, user_id: 'u-r', thread_id: threadId } });
    const body = await json<SendMessageResponse>(res);
    threadId = body.thread_id;
    replies.push(body.message);
  }
  return { threadId: threadId!, replies };
}

const transcript = async (token: string, threadId: string) =>
  json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }));

describe('reference server: rerun', () => {
  it('branches a new thread: history before the interaction plus the re-run turn; source untouched', async () => {
    const { key, token } = await session({ paceMs: 0 });
    const { threadId, replies } = await conversation(token, ['hello', 'show me jackets', 'compare backpacks']);
    const before = await transcript(token, threadId);

    const res = await call(`/messaging/v1/threads/${threadId}/rerun`, {
      token,
      body: { interaction_id: replies[1]!.id, text: 'show me running shoes' },
    });
    expect(res.status).to.equal(200);
    const { thread_id, message } = await json<SendMessageResponse>(res);
    expect(thread_id)
      .to.match(/^[0-9a-f]{24}$/)
      .and.not.equal(threadId);
    expect(message.text).to.match(/running shoes/i);
    expect(message.id).to.not.equal(replies[1]!.id);

    const branch = await transcript(token, thread_id);
    expect(branch.map((m) => m.text).slice(0, 3)).to.deep.equal(['hello', replies[0]!.text, 'show me running shoes']);
    expect(branch).to.have.length(4);
    expect(branch[3]).to.deep.equal(message);
    expect(branch[2]!.id).to.equal(message.id);
    expect(branch[2]!.sender).to.deep.equal({ type: 'user', id: 'u-r' });

    expect(await transcript(token, threadId)).to.deep.equal(before);
    expect((await keyStats(key)).turnsRun).to.equal(4);
  });

  it('attributes the rerun to user_id when given, and continues the branch like any thread', async () => {
    const { token } = await session({ paceMs: 0 });
    const { threadId, replies } = await conversation(token, ['hello']);
    const { thread_id } = await json<SendMessageResponse>(
      await call(`/messaging/v1/threads/${threadId}/rerun`, {
        token,
        body: { interaction_id: replies[0]!.id, text: 'hi', user_id: 'u-other' },
      }),
    );
    const branch = await transcript(token, thread_id);
    expect(branch[0]!.sender).to.deep.equal({ type: 'user', id: 'u-other' });
    const next = await call('/messaging/v1/messages', { token, body: { text: 'more', user_id: 'u-other', thread_id } });
    expect(next.status).to.equal(200);
  });

  it('pins a version by id or tag; unknown versions are 404, a mismatch 422', async () => {
    const { key, token } = await session({ paceMs: 0 });
    const { threadId, replies } = await conversation(token, ['hello']);
    // Each key's agent has versions of its own: their ids come from the management surface.
    const login = await json<{ access_token: string; agent_id: string }>(
      await call('/management/v1/auth/login', {
        headers: { 'x-organization-api-key': ORGANIZATION_API_KEY },
        body: { publishable_key: key },
      }),
    );
    const { results } = await json<{ results: Array<{ id: string; tag: string }> }>(
      await call(`/management/v1/agents/${login.agent_id}/versions`, { token: login.access_token }),
    );
    const [liveId, previewId] = [results.find((v) => v.tag === 'v1.0')!.id, results.find((v) => v.tag === 'v1.1-preview')!.id];
    const rerun = (extra: Record<string, unknown>) =>
      call(`/messaging/v1/threads/${threadId}/rerun`, { token, body: { interaction_id: replies[0]!.id, text: 'hello', ...extra } });

    const preview = await json<SendMessageResponse>(await rerun({ version_tag: 'v1.1-preview' }));
    expect(preview.message.text).to.contain('v1.1-preview');
    const live = await json<SendMessageResponse>(await rerun({}));
    expect(live.message.text).to.not.contain('v1.1-preview');
    expect((await rerun({ version_id: previewId })).status).to.equal(200);
    expect((await rerun({ version_id: liveId, version_tag: 'v1.0' })).status).to.equal(200);

    await expectEnvelope(await rerun({ version_tag: 'v9.9' }), 404, 'not_found');
    await expectEnvelope(await rerun({ version_id: 'ffffffffffffffffffffffff' }), 404, 'not_found');
    const bad = await expectEnvelope(await rerun({ version_id: 'v1' }), 422);
    expect(bad.details![0]!.field).to.equal('version_id');
    const mismatch = await expectEnvelope(await rerun({ version_id: liveId, version_tag: 'v1.1-preview' }), 422);
    expect(mismatch.details![0]!.field).to.equal('version_tag');
  });

  it('validates: agent_id, empty text, malformed ids, unknown thread and interaction', async () => {
    const { key, token } = await session({ paceMs: 0 });
    const { threadId, replies } = await conversation(token, ['hello']);
    const id = replies[0]!.id;
    const post = (thread: string, body: unknown) => call(`/messaging/v1/threads/${thread}/rerun`, { token, body });

    let e = await expectEnvelope(await post(threadId, { interaction_id: id, text: 'x', agent_id: id }), 422, 'validation_error');
    expect(e.details!.map((d) => d.field)).to.deep.equal(['agent_id']);
    e = await expectEnvelope(await post(threadId, { interaction_id: id, text: '' }), 422);
    expect(e.details!.map((d) => d.field)).to.deep.equal(['text']);
    e = await expectEnvelope(await post(threadId, { interaction_id: 'abc', text: 'x' }), 422);
    expect(e.details!.map((d) => d.field)).to.deep.equal(['interaction_id']);
    e = await expectEnvelope(await post('not-hex', { interaction_id: id, text: 'x' }), 422);
    expect(e.details!.map((d) => d.field)).to.deep.equal(['thread_id']);
    await expectEnvelope(await post('0123456789abcdef01234567', { interaction_id: id, text: 'x' }), 404, 'not_found');
    await expectEnvelope(await post(threadId, { interaction_id: '0123456789abcdef01234567', text: 'x' }), 404, 'not_found');
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });
});
