import { expect, waitUntil } from '@open-wc/testing';
import type { Message } from '../../src/client/types.js';
import { keyStats } from '../support/server.js';
import { call, expectEnvelope, json, parsed, seqs, session, SseReader, stream } from './helpers.js';

const body = (extra: Record<string, unknown> = {}) => ({ text: 'Show me backpacks', user_id: 'u-s', ...extra });

describe('reference server: SSE stream', () => {
  it('streams thread, token events, the message, then [DONE]', async () => {
    const { key, token } = await session({ paceMs: 1 });
    const res = await stream(token, body());
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(res.headers.get('x-request-id')).to.be.a('string');
    const frames = await new SseReader(res).all();
    expect(frames.at(-1)!.data).to.equal('[DONE]');
    const list = parsed(frames);
    expect(list[0]!.type).to.equal('thread');
    expect(list[0]!.seq).to.equal(undefined);
    expect(frames[0]!.id).to.equal(undefined);
    const threadId = list[0]!.data.thread_id!;
    expect(threadId).to.match(/^[0-9a-f]{24}$/);
    const events = list.filter((f) => f.type === 'event');
    expect(events.length).to.be.greaterThan(5);
    const last = list.at(-1)!;
    expect(last.type).to.equal('message');
    const message = last.data as unknown as Message;
    // The deltas add up to exactly the final text.
    expect(events.map((e) => e.data.text).join('')).to.equal(message.text);
    // Sequenced frames carry a matching SSE id line; seq starts positive and increases by one.
    const s = seqs(frames);
    expect(s[0]).to.be.greaterThan(0);
    s.forEach((n, i) => i && expect(n).to.equal(s[i - 1]! + 1));
    for (const f of frames.slice(1, -1)) expect(f.id).to.equal(String((JSON.parse(f.data) as { seq: number }).seq));
    // The streamed message is the one the transcript keeps.
    const transcript = await json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }));
    expect(transcript.at(-1)).to.deep.equal(message);
    expect(transcript.at(-2)!.id).to.equal(message.id);
    const stats = await keyStats(key);
    expect(stats.turnsRun).to.equal(1);
    expect(stats.streamConnections).to.equal(1);
  });

  it('continues seq numbering across the turns of a thread', async () => {
    const { token } = await session({ paceMs: 0 });
    const first = await new SseReader(await stream(token, body())).all();
    const threadId = parsed(first)[0]!.data.thread_id!;
    const second = await new SseReader(await stream(token, body({ text: 'hello', thread_id: threadId }))).all();
    expect(parsed(second)[0]!.data.thread_id).to.equal(threadId);
    const a = seqs(first);
    const b = seqs(second);
    expect(b[0]).to.equal(a.at(-1)! + 1);
  });

  it('splits tokens by chunkChars', async () => {
    const { token } = await session({ paceMs: 0, chunkChars: 3, replies: [{ text: 'abcdefgh' }] });
    const frames = parsed(await new SseReader(await stream(token, body())).all());
    expect(frames.filter((f) => f.type === 'event').map((f) => f.data.text)).to.deep.equal(['abc', 'def', 'gh']);
  });

  it('streams scripted hostile replies verbatim', async () => {
    const hostile = '<img src=x onerror="alert(1)"> **bold** <script>alert(2)</script> [x](javascript:alert(3))';
    const cards = [{ json_data: { entity: { title: '<b>t</b>', url: 'javascript:alert(4)' } }, rendered_jsx: '<X onClick={alert} />' }];
    const { token } = await session({ paceMs: 0, replies: [{ text: hostile, cards, suggestions: ['<i>s</i>'] }, { text: 'second' }] });
    const frames = parsed(await new SseReader(await stream(token, body())).all());
    const message = frames.at(-1)!.data as unknown as Message;
    expect(
      frames
        .filter((f) => f.type === 'event')
        .map((f) => f.data.text)
        .join(''),
    ).to.equal(hostile);
    expect(message.text).to.equal(hostile);
    expect(message.cards).to.deep.equal(cards);
    expect(message.followup_suggestions).to.deep.equal(['<i>s</i>']);
    const rest = await json<{ message: Message }>(await call('/messaging/v1/messages', { token, body: body() }));
    expect(rest.message.text).to.equal('second');
  });

  it('reports validation and auth failures as HTTP envelopes, not streams', async () => {
    const { token } = await session();
    await expectEnvelope(await stream(token, { text: '', user_id: 'u' }), 422, 'validation_error');
    await expectEnvelope(await call('/messaging/v1/messages/stream', { body: body() }), 401);
  });
});

describe('reference server: stream resume', () => {
  it('replays missed frames after Last-Event-ID without running the turn again', async () => {
    const { key, token } = await session({ paceMs: 5, dropAfter: [4] });
    const cut = new SseReader(await stream(token, body()));
    const firstFrames = await cut.all();
    // Cut after 4 frames: thread + 3 events, and no [DONE].
    expect(firstFrames).to.have.length(4);
    expect(firstFrames.some((f) => f.data === '[DONE]')).to.equal(false);
    const threadId = parsed(firstFrames)[0]!.data.thread_id!;
    const lastSeq = seqs(firstFrames).at(-1)!;

    const resumed = await new SseReader(await stream(token, body({ thread_id: threadId }), { 'last-event-id': String(lastSeq) })).all();
    const list = parsed(resumed);
    expect(list[0]).to.deep.equal({ type: 'thread', data: { thread_id: threadId } });
    expect(seqs(resumed)[0]).to.equal(lastSeq + 1);
    expect(resumed.at(-1)!.data).to.equal('[DONE]');
    const text = [...parsed(firstFrames), ...list]
      .filter((f) => f.type === 'event')
      .map((f) => f.data.text)
      .join('');
    expect(text).to.equal((list.at(-1)!.data as unknown as Message).text);

    const stats = await keyStats(key);
    expect(stats.turnsRun).to.equal(1);
    expect(stats.streamConnections).to.equal(2);
    expect(stats.requests.at(-1)!.lastEventId).to.equal(String(lastSeq));
    // The transcript holds the turn once.
    const transcript = await json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }));
    expect(transcript).to.have.length(2);
  });

  it('a seq of an earlier turn with the same question resumes nothing: 409, not the later turn’s frames', async () => {
    const { token } = await session({ paceMs: 0 });
    const first = await new SseReader(await stream(token, body())).all();
    const threadId = parsed(first)[0]!.data.thread_id!;
    const earlier = seqs(first).at(-3)!;
    // The same question again: the thread's latest turn now.
    await new SseReader(await stream(token, body({ thread_id: threadId }))).all();
    await expectEnvelope(
      await stream(token, body({ thread_id: threadId }), { 'last-event-id': String(earlier) }),
      409,
      'stream.not_resumable',
    );
  });

  it('replays the whole turn for Last-Event-ID 0, also once it has finished', async () => {
    const { key, token } = await session({ paceMs: 0 });
    const original = await new SseReader(await stream(token, body())).all();
    const threadId = parsed(original)[0]!.data.thread_id!;
    const replay = await new SseReader(await stream(token, body({ thread_id: threadId }), { 'last-event-id': '0' })).all();
    expect(replay.map((f) => f.data)).to.deep.equal(original.map((f) => f.data));
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('answers 409 stream.not_resumable when there is no such turn', async () => {
    const { key, token } = await session({ paceMs: 0 });
    await expectEnvelope(await stream(token, body(), { 'last-event-id': '3' }), 409, 'stream.not_resumable');
    const original = await new SseReader(await stream(token, body())).all();
    const threadId = parsed(original)[0]!.data.thread_id!;
    await expectEnvelope(
      await stream(token, body({ thread_id: threadId, text: 'a different message' }), { 'last-event-id': '3' }),
      409,
      'stream.not_resumable',
    );
    await expectEnvelope(await stream(token, body({ thread_id: threadId }), { 'last-event-id': 'abc' }), 422);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('a drop before any sequenced frame resumes with Last-Event-ID 0', async () => {
    const { key, token } = await session({ paceMs: 5, dropAfter: [1] });
    const cut = await new SseReader(await stream(token, body())).all();
    expect(parsed(cut).map((f) => f.type)).to.deep.equal(['thread']);
    const threadId = parsed(cut)[0]!.data.thread_id!;
    const resumed = await new SseReader(await stream(token, body({ thread_id: threadId }), { 'last-event-id': '0' })).all();
    expect(seqs(resumed)[0]).to.equal(1);
    expect(resumed.at(-1)!.data).to.equal('[DONE]');
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });
});

describe('reference server: stream fault knobs', () => {
  it('dropAfter cuts connections in order; the turn finishes server-side', async () => {
    const { key, token } = await session({ paceMs: 2, dropAfter: [2, 3] });
    const a = await new SseReader(await stream(token, body())).all();
    expect(a).to.have.length(2);
    const threadId = parsed(a)[0]!.data.thread_id!;
    const b = await new SseReader(
      await stream(token, body({ thread_id: threadId }), { 'last-event-id': seqs(a).at(-1)!.toString() }),
    ).all();
    expect(b).to.have.length(3);
    expect(b.some((f) => f.data === '[DONE]')).to.equal(false);
    // Nobody listens now; the turn still completes and lands in the transcript.
    await waitUntil(
      async () => (await json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }))).length === 2,
      'the turn did not land in the transcript',
      { timeout: 8000, interval: 20 },
    );
    const transcript = await json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }));
    expect(transcript.map((m) => m.sender.type)).to.deep.equal(['user', 'agent']);
    const c = await new SseReader(
      await stream(token, body({ thread_id: threadId }), { 'last-event-id': seqs(b).at(-1)!.toString() }),
    ).all();
    expect(c.at(-1)!.data).to.equal('[DONE]');
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('stallAfter leaves the first connection open and silent', async () => {
    const { key, token } = await session({ paceMs: 1, stallAfter: 2 });
    const abort = new AbortController();
    const reader = new SseReader(await stream(token, body(), {}, abort.signal));
    await reader.next();
    await reader.next();
    expect(await reader.silentFor(400)).to.equal(true);
    expect(reader.ended).to.equal(false);
    abort.abort();
    await reader.cancel();
    // The second connection (a resume) is not stalled.
    const threadId = parsed(reader.frames)[0]!.data.thread_id!;
    const resumed = await new SseReader(await stream(token, body({ thread_id: threadId }), { 'last-event-id': '1' })).all();
    expect(resumed.at(-1)!.data).to.equal('[DONE]');
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('malformedAfter writes one non-JSON frame on the first connection only', async () => {
    const { token } = await session({ paceMs: 0, malformedAfter: 2 });
    const frames = await new SseReader(await stream(token, body())).all();
    expect(() => JSON.parse(frames[2]!.data)).to.throw();
    expect(frames.filter((f) => f.data !== '[DONE]').filter((f) => !isJson(f.data))).to.have.length(1);
    expect(frames.at(-1)!.data).to.equal('[DONE]');
    const again = await new SseReader(await stream(token, body())).all();
    expect(again.filter((f) => f.data !== '[DONE]').every((f) => isJson(f.data))).to.equal(true);
  });

  it('unknownFrameAfter writes a frame of an unknown type on every connection', async () => {
    const { token } = await session({ paceMs: 0, unknownFrameAfter: 1 });
    for (let i = 0; i < 2; i++) {
      const list = parsed(await new SseReader(await stream(token, body())).all());
      expect(list[0]!.type).to.equal('thread');
      expect(list[1]!.type).to.not.be.oneOf(['thread', 'event', 'message', 'error']);
      expect(list.at(-1)!.type).to.equal('message');
    }
  });

  for (const statusField of ['status', 'status_code', 'code'] as const) {
    it(`errorFrame fails the turn with the status under data.${statusField}, then [DONE]`, async () => {
      const { key, token } = await session({ paceMs: 0, errorFrame: { after: 3, status: 503, statusField, message: 'overloaded' } });
      const frames = await new SseReader(await stream(token, body())).all();
      const list = parsed(frames);
      expect(list.map((f) => f.type)).to.deep.equal(['thread', 'event', 'event', 'error']);
      expect(list[3]!.data).to.deep.equal({ message: 'overloaded', [statusField]: 503 });
      expect(frames.at(-1)!.data).to.equal('[DONE]');
      // The failed turn left nothing behind; the next turn (default times: 1) runs normally.
      const threadId = list[0]!.data.thread_id!;
      expect(await json(await call(`/messaging/v1/threads/${threadId}/messages`, { token }))).to.deep.equal([]);
      const retry = parsed(await new SseReader(await stream(token, body({ thread_id: threadId }))).all());
      expect(retry.at(-1)!.type).to.equal('message');
      expect((await keyStats(key)).turnsRun).to.equal(2);
    });
  }

  it('errorFrame is replayed to a client that resumes the failed turn', async () => {
    const { token } = await session({ paceMs: 0, errorFrame: { after: 2 } });
    const frames = await new SseReader(await stream(token, body())).all();
    const threadId = parsed(frames)[0]!.data.thread_id!;
    const replay = parsed(await new SseReader(await stream(token, body({ thread_id: threadId }), { 'last-event-id': '1' })).all());
    expect(replay.map((f) => f.type)).to.deep.equal(['thread', 'error']);
    expect(replay[1]!.data.status).to.equal(503);
  });

  it('a newer message supersedes a running turn of the same thread', async () => {
    const { token } = await session({ paceMs: 20 });
    const first = new SseReader(await stream(token, body()));
    const threadFrame = await first.next();
    const threadId = (JSON.parse(threadFrame!.data) as { data: { thread_id: string } }).data.thread_id;
    const second = await new SseReader(await stream(token, { text: 'hello', user_id: 'u-s', thread_id: threadId })).all();
    expect(parsed(second).at(-1)!.type).to.equal('message');
    const rest = parsed(await first.all());
    expect(rest.at(-1)!.type).to.equal('error');
    expect(rest.at(-1)!.data.status).to.equal(409);
    const transcript = await json<Message[]>(await call(`/messaging/v1/threads/${threadId}/messages`, { token }));
    expect(transcript.map((m) => m.text)[0]).to.equal('hello');
  });
});

function isJson(data: string): boolean {
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
