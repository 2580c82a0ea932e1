import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@agent-chat/wire';
import { envelope, reference } from './support.js';

/**
 * `POST /messaging/v1/messages/stream`: the frames of a turn, its resume with
 * `Last-Event-ID`, and the stream's fault knobs (src/faults/plan.ts), in Node through
 * `app.fetch` (moved from the browser suite, issue #38 item 8: a page's fetch reads the same
 * bytes). A response body here is pulled: the server writes a connection's next frame when
 * the test reads it, while the turn itself runs on regardless.
 */

afterEach(() => {
  vi.useRealTimers();
});

interface SseFrame {
  /** The raw `data:` payload. */
  data: string;
  id?: string;
}

interface ParsedFrame {
  type: string;
  seq?: number;
  data: Record<string, unknown> & { text?: string; thread_id?: string; message?: string; status?: number };
}

/** Reads SSE frames off a response body, one at a time or all of them. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  /** A read asked for and not yet answered (quiet() may leave one): the next read is that one. */
  private pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;
  readonly frames: SseFrame[] = [];
  /** Comments read (`: keepalive`), which are not frames. */
  readonly comments: string[] = [];
  ended = false;

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** The next frame, or null when the response has ended. */
  async next(): Promise<SseFrame | null> {
    for (;;) {
      const block = this.block();
      if (block && block !== 'comment') return block;
      if (!block && !(await this.read())) return null;
    }
  }

  /** Reads until a comment (`: keepalive`) has come: it, or null when the response ended first. */
  async comment(): Promise<string | null> {
    for (;;) {
      const block = this.block();
      if (block === 'comment') return this.comments.at(-1)!;
      if (!block && !(await this.read())) return null;
    }
  }

  /** The next block of the buffer (a frame, or a comment kept in `comments`), if a whole one is there. */
  private block(): SseFrame | 'comment' | undefined {
    const cut = this.buffer.indexOf('\n\n');
    if (cut < 0) return undefined;
    const block = this.buffer.slice(0, cut);
    this.buffer = this.buffer.slice(cut + 2);
    if (block.split('\n').every((line) => line.startsWith(':'))) {
      this.comments.push(block);
      return 'comment';
    }
    const frame: SseFrame = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('data: ')) data.push(line.slice(6));
      else if (line.startsWith('id: ')) frame.id = line.slice(4);
    }
    frame.data = data.join('\n');
    this.frames.push(frame);
    return frame;
  }

  /** One more chunk into the buffer; false when the response has ended. */
  private async read(): Promise<boolean> {
    if (this.ended) return false;
    this.pending ??= this.reader.read();
    const chunk = await this.pending;
    this.pending = undefined;
    if (chunk.done) this.ended = true;
    else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    return !this.ended;
  }

  /** Every frame until the response ends. */
  async all(): Promise<SseFrame[]> {
    while ((await this.next()) !== null);
    return this.frames;
  }

  /**
   * Whether the connection has nothing more to give now, neither a frame nor its end. The
   * server writes in promise jobs (the turn's frames, the embedded database), so a read not
   * answered once those have run, by the next turn of the event loop, is one the server is
   * not answering: no waiting on a clock.
   */
  async quiet(): Promise<boolean> {
    if (this.ended || this.buffer.includes('\n\n')) return false;
    this.pending ??= this.reader.read();
    const first = await Promise.race([
      this.pending.then(() => 'answered' as const),
      new Promise<'quiet'>((resolve) => setImmediate(() => resolve('quiet'))),
    ]);
    return first === 'quiet';
  }

  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }
}

const parsed = (frames: SseFrame[]): ParsedFrame[] =>
  frames.filter((f) => f.data !== '[DONE]').map((f) => JSON.parse(f.data) as ParsedFrame);

const seqs = (frames: SseFrame[]): number[] =>
  parsed(frames)
    .map((f) => f.seq)
    .filter((s): s is number => s !== undefined);

function isJson(data: string): boolean {
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

const body = (extra: Record<string, unknown> = {}) => ({ text: 'Show me backpacks', user_id: 'u-s', ...extra });

/** A server and a minted key with `plan`; `stream` sends a stream request, `read` reads one to its end. */
async function setup(plan: Record<string, unknown>, options: Parameters<typeof reference>[0] = {}) {
  const ref = await reference(options);
  const minted = await ref.mint(plan);
  const stream = (sent: unknown, headers: Record<string, string> = {}) =>
    ref.call('/messaging/v1/messages/stream', { token: minted.token, body: sent, headers: { accept: 'text/event-stream', ...headers } });
  const read = async (sent: unknown, headers: Record<string, string> = {}) => new SseReader(await stream(sent, headers)).all();
  const transcript = (threadId: string) => ref.json<Message[]>(`/messaging/v1/threads/${threadId}/messages`, { token: minted.token });
  return { ref, ...minted, stream, read, transcript };
}

describe('reference server: SSE stream', () => {
  it('goes through proxies as written: no-cache, no-transform, unbuffered, a comment after each silence', async () => {
    // A connection held open after its last frame (`keepOpen`): silent from then on. The
    // silence is 15 s (HEARTBEAT_MS) in production, 50 ms here.
    const { stream } = await setup({ keepOpen: true, replies: [{ text: 'Hi.' }] }, { heartbeatMs: 50 });
    const res = await stream(body());
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    // Framing is Node's, by the request's HTTP version: no chunks forced on an HTTP/1.0 proxy.
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(res.headers.get('connection')).toBeNull();
    const reader = new SseReader(res);
    while ((await reader.next())?.data.includes('"type":"message"') === false);
    // Comments are not frames: the reply is whole, then the silence has them.
    expect(parsed(reader.frames).map((f) => f.type)).toEqual(['thread', 'event', 'message']);
    const before = reader.comments.length;
    expect(await reader.comment()).toBe(': keepalive');
    expect(await reader.comment()).toBe(': keepalive');
    expect(reader.comments.length).toBe(before + 2);
    await reader.cancel();
  });

  it('streams thread, token events, the message, then [DONE]', async () => {
    const { ref, key, stream, transcript } = await setup({ paceMs: 1 });
    const res = await stream(body());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(typeof res.headers.get('x-request-id')).toBe('string');
    const frames = await new SseReader(res).all();
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const list = parsed(frames);
    expect(list[0]!.type).toBe('thread');
    expect(list[0]!.seq).toBeUndefined();
    expect(frames[0]!.id).toBeUndefined();
    const threadId = list[0]!.data.thread_id!;
    expect(threadId).toMatch(/^[0-9a-f]{24}$/);
    const events = list.filter((f) => f.type === 'event');
    expect(events.length).toBeGreaterThan(5);
    const last = list.at(-1)!;
    expect(last.type).toBe('message');
    const message = last.data as unknown as Message;
    // The deltas add up to exactly the final text.
    expect(events.map((e) => e.data.text).join('')).toBe(message.text);
    // Sequenced frames carry a matching SSE id line; seq starts positive and increases by one.
    const s = seqs(frames);
    expect(s[0]).toBeGreaterThan(0);
    s.forEach((n, i) => i && expect(n).toBe(s[i - 1]! + 1));
    for (const f of frames.slice(1, -1)) expect(f.id).toBe(String((JSON.parse(f.data) as { seq: number }).seq));
    // The streamed message is the one the transcript keeps.
    const kept = await transcript(threadId);
    expect(kept.at(-1)).toEqual(message);
    expect(kept.at(-2)!.id).toBe(message.id);
    const stats = await ref.stats(key);
    expect(stats.turnsRun).toBe(1);
    expect(stats.streamConnections).toBe(1);
  });

  it('continues seq numbering across the turns of a thread', async () => {
    const { read } = await setup({ paceMs: 0 });
    const first = await read(body());
    const threadId = parsed(first)[0]!.data.thread_id!;
    const second = await read(body({ text: 'hello', thread_id: threadId }));
    expect(parsed(second)[0]!.data.thread_id).toBe(threadId);
    const a = seqs(first);
    const b = seqs(second);
    expect(b[0]).toBe(a.at(-1)! + 1);
  });

  it('splits tokens by chunkChars', async () => {
    const { read } = await setup({ paceMs: 0, chunkChars: 3, replies: [{ text: 'abcdefgh' }] });
    const frames = parsed(await read(body()));
    expect(frames.filter((f) => f.type === 'event').map((f) => f.data.text)).toEqual(['abc', 'def', 'gh']);
  });

  it('streams scripted hostile replies verbatim', async () => {
    const hostile = '<img src=x onerror="alert(1)"> **bold** <script>alert(2)</script> [x](javascript:alert(3))';
    const cards = [{ json_data: { entity: { title: '<b>t</b>', url: 'javascript:alert(4)' } }, rendered_jsx: '<X onClick={alert} />' }];
    const { ref, token, read } = await setup({
      paceMs: 0,
      replies: [{ text: hostile, cards, suggestions: ['<i>s</i>'] }, { text: 'second' }],
    });
    const frames = parsed(await read(body()));
    const message = frames.at(-1)!.data as unknown as Message;
    expect(
      frames
        .filter((f) => f.type === 'event')
        .map((f) => f.data.text)
        .join(''),
    ).toBe(hostile);
    expect(message.text).toBe(hostile);
    expect(message.cards).toEqual(cards);
    expect(message.followup_suggestions).toEqual(['<i>s</i>']);
    const rest = await ref.json<{ message: Message }>('/messaging/v1/messages', { token, body: body() });
    expect(rest.message.text).toBe('second');
  });

  it('reports validation and auth failures as HTTP envelopes, not streams', async () => {
    const { ref, stream } = await setup({});
    await envelope(await stream({ text: '', user_id: 'u' }), 422, 'validation_error');
    await envelope(await ref.call('/messaging/v1/messages/stream', { body: body() }), 401);
  });
});

describe('reference server: stream resume', () => {
  it('replays missed frames after Last-Event-ID without running the turn again', async () => {
    const { ref, key, read, transcript } = await setup({ paceMs: 5, dropAfter: [4] });
    const firstFrames = await read(body());
    // Cut after 4 frames: thread + 3 events, and no [DONE].
    expect(firstFrames).toHaveLength(4);
    expect(firstFrames.some((f) => f.data === '[DONE]')).toBe(false);
    const threadId = parsed(firstFrames)[0]!.data.thread_id!;
    const lastSeq = seqs(firstFrames).at(-1)!;

    const resumed = await read(body({ thread_id: threadId }), { 'last-event-id': String(lastSeq) });
    const list = parsed(resumed);
    expect(list[0]).toEqual({ type: 'thread', data: { thread_id: threadId } });
    expect(seqs(resumed)[0]).toBe(lastSeq + 1);
    expect(resumed.at(-1)!.data).toBe('[DONE]');
    const text = [...parsed(firstFrames), ...list]
      .filter((f) => f.type === 'event')
      .map((f) => f.data.text)
      .join('');
    expect(text).toBe((list.at(-1)!.data as unknown as Message).text);

    const stats = await ref.stats(key);
    expect(stats.turnsRun).toBe(1);
    expect(stats.streamConnections).toBe(2);
    expect(stats.requests.at(-1)!.lastEventId).toBe(String(lastSeq));
    // The transcript holds the turn once.
    expect(await transcript(threadId)).toHaveLength(2);
  });

  it('a seq of an earlier turn with the same question resumes nothing: 409, not the later turn’s frames', async () => {
    const { read, stream } = await setup({ paceMs: 0 });
    const first = await read(body());
    const threadId = parsed(first)[0]!.data.thread_id!;
    const earlier = seqs(first).at(-3)!;
    // The same question again: the thread's latest turn now.
    await read(body({ thread_id: threadId }));
    await envelope(await stream(body({ thread_id: threadId }), { 'last-event-id': String(earlier) }), 409, 'stream.not_resumable');
  });

  it('replays the whole turn for Last-Event-ID 0, also once it has finished', async () => {
    const { ref, key, read } = await setup({ paceMs: 0 });
    const original = await read(body());
    const threadId = parsed(original)[0]!.data.thread_id!;
    const replay = await read(body({ thread_id: threadId }), { 'last-event-id': '0' });
    expect(replay.map((f) => f.data)).toEqual(original.map((f) => f.data));
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('answers 409 stream.not_resumable when there is no such turn', async () => {
    const { ref, key, read, stream } = await setup({ paceMs: 0 });
    await envelope(await stream(body(), { 'last-event-id': '3' }), 409, 'stream.not_resumable');
    const original = await read(body());
    const threadId = parsed(original)[0]!.data.thread_id!;
    await envelope(
      await stream(body({ thread_id: threadId, text: 'a different message' }), { 'last-event-id': '3' }),
      409,
      'stream.not_resumable',
    );
    await envelope(await stream(body({ thread_id: threadId }), { 'last-event-id': 'abc' }), 422);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('a drop before any sequenced frame resumes with Last-Event-ID 0', async () => {
    const { ref, key, read } = await setup({ paceMs: 5, dropAfter: [1] });
    const cut = await read(body());
    expect(parsed(cut).map((f) => f.type)).toEqual(['thread']);
    const threadId = parsed(cut)[0]!.data.thread_id!;
    const resumed = await read(body({ thread_id: threadId }), { 'last-event-id': '0' });
    expect(seqs(resumed)[0]).toBe(1);
    expect(resumed.at(-1)!.data).toBe('[DONE]');
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });
});

/**
 * Runs the fake clock's timers one by one until `work` settles: a turn paced on the test's
 * clock moves on only as far as a reading needs it to.
 */
async function meanwhile<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  while (!settled) {
    if (vi.getTimerCount() === 0) throw new Error('no timer left to run, and the reading has not ended');
    await vi.advanceTimersToNextTimerAsync();
  }
  return done;
}

describe('reference server: stream fault knobs', () => {
  it('dropAfter cuts connections in order; the turn finishes server-side', async () => {
    const { ref, key, stream, read, transcript } = await setup({ paceMs: 2, dropAfter: [2, 3] });
    // The reply's pace on the test's clock: the turn goes on between the readings only when
    // the test runs its timers, so "nobody listens" below is certain, and nothing waits.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const a = await meanwhile(new SseReader(await stream(body())).all());
    expect(a).toHaveLength(2);
    const threadId = parsed(a)[0]!.data.thread_id!;
    const b = await meanwhile(
      new SseReader(await stream(body({ thread_id: threadId }), { 'last-event-id': seqs(a).at(-1)!.toString() })).all(),
    );
    expect(b).toHaveLength(3);
    expect(b.some((f) => f.data === '[DONE]')).toBe(false);
    expect(await transcript(threadId)).toEqual([]);
    // Nobody listens now; the turn still completes (the rest of its pace, then its end is
    // recorded) and lands in the transcript. A resume reads it to its end (the database's
    // writes are the embedded one's thread's, not this clock's), then the transcript holds it.
    await vi.runAllTimersAsync();
    const c = await read(body({ thread_id: threadId }), { 'last-event-id': seqs(b).at(-1)!.toString() });
    expect(c.at(-1)!.data).toBe('[DONE]');
    const kept = await transcript(threadId);
    expect(kept.map((m) => m.sender.type)).toEqual(['user', 'agent']);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('stallAfter leaves the first connection open and silent', async () => {
    const { ref, key, stream, read } = await setup({ paceMs: 1, stallAfter: 2 });
    const reader = new SseReader(await stream(body()));
    await reader.next();
    await reader.next();
    const threadId = parsed(reader.frames)[0]!.data.thread_id!;
    // The second connection (a resume) is not stalled: it reads the turn to its end…
    const resumed = await read(body({ thread_id: threadId }), { 'last-event-id': '1' });
    expect(resumed.at(-1)!.data).toBe('[DONE]');
    // …while the first, which had every frame to write by then, writes none, and stays open.
    expect(await reader.quiet()).toBe(true);
    expect(reader.ended).toBe(false);
    expect(reader.frames).toHaveLength(2);
    await reader.cancel();
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('malformedAfter writes one non-JSON frame on the first connection only', async () => {
    const { read } = await setup({ paceMs: 0, malformedAfter: 2 });
    const frames = await read(body());
    expect(() => JSON.parse(frames[2]!.data)).toThrow();
    expect(frames.filter((f) => f.data !== '[DONE]').filter((f) => !isJson(f.data))).toHaveLength(1);
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const again = await read(body());
    expect(again.filter((f) => f.data !== '[DONE]').every((f) => isJson(f.data))).toBe(true);
  });

  it('unknownFrameAfter writes a frame of an unknown type on every connection', async () => {
    const { read } = await setup({ paceMs: 0, unknownFrameAfter: 1 });
    for (let i = 0; i < 2; i++) {
      const list = parsed(await read(body()));
      expect(list[0]!.type).toBe('thread');
      expect(['thread', 'event', 'message', 'error']).not.toContain(list[1]!.type);
      expect(list.at(-1)!.type).toBe('message');
    }
  });

  for (const statusField of ['status', 'status_code', 'code'] as const) {
    it(`errorFrame fails the turn with the status under data.${statusField}, then [DONE]`, async () => {
      const { ref, key, read, transcript } = await setup({
        paceMs: 0,
        errorFrame: { after: 3, status: 503, statusField, message: 'overloaded' },
      });
      const frames = await read(body());
      const list = parsed(frames);
      expect(list.map((f) => f.type)).toEqual(['thread', 'event', 'event', 'error']);
      // With the request that started the turn, as an error envelope names it.
      expect(list[3]!.data).toEqual({ message: 'overloaded', [statusField]: 503, request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/) });
      expect(frames.at(-1)!.data).toBe('[DONE]');
      // The failed turn left nothing behind; the next turn (default times: 1) runs normally.
      const threadId = list[0]!.data.thread_id!;
      expect(await transcript(threadId)).toEqual([]);
      const retry = parsed(await read(body({ thread_id: threadId })));
      expect(retry.at(-1)!.type).toBe('message');
      expect((await ref.stats(key)).turnsRun).toBe(2);
    });
  }

  it('errorFrame is replayed to a client that resumes the failed turn', async () => {
    const { read } = await setup({ paceMs: 0, errorFrame: { after: 2 } });
    const frames = await read(body());
    const threadId = parsed(frames)[0]!.data.thread_id!;
    const replay = parsed(await read(body({ thread_id: threadId }), { 'last-event-id': '1' }));
    expect(replay.map((f) => f.type)).toEqual(['thread', 'error']);
    expect(replay[1]!.data.status).toBe(503);
  });

  it('a newer message supersedes a running turn of the same thread', async () => {
    const { stream, read, transcript } = await setup({ paceMs: 20 });
    const first = new SseReader(await stream(body()));
    const threadFrame = await first.next();
    const threadId = (JSON.parse(threadFrame!.data) as { data: { thread_id: string } }).data.thread_id;
    const second = await read({ text: 'hello', user_id: 'u-s', thread_id: threadId });
    expect(parsed(second).at(-1)!.type).toBe('message');
    const rest = parsed(await first.all());
    expect(rest.at(-1)!.type).toBe('error');
    expect(rest.at(-1)!.data.status).toBe(409);
    const kept = await transcript(threadId);
    expect(kept.map((m) => m.text)[0]).toBe('hello');
  });
});
