import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { cutText, readMessage, readMessages, readSendResponse } from '../../src/client/guards.js';
import { TurnProgress } from '../../src/client/progress.js';
import { MAX_FRAME, frameLimit, readFrames, type DataFrame } from '../../src/client/sse.js';
import { streamTurn } from '../../src/client/stream.js';
import type { HttpContext } from '../../src/client/http.js';
import type { TokenManager } from '../../src/client/token.js';
import { REPLY_LENGTH, type Message } from '../../src/client/types.js';
import { readConfig } from '../../src/state/config.js';
import { ConversationStore } from '../../src/state/store.js';
import { appendDelta, settle, startReply } from '../../src/state/turn-transitions.js';
import { emptyReply, fromWire } from '../../src/state/messages.js';
import { MAX_TEXT, readRunningTurn } from '../../src/continuity/running-turn.js';

/**
 * The size limits (docs/protocol.md "Size limits"): one reply keeps at most
 * `max-reply-length` characters, wherever it comes from (a REST answer, a transcript, a
 * stream's tokens or its final frame), and a stream past it, or a frame too large to read,
 * ends its turn as complete with what it has, instead of failing or resuming.
 */

const T = 'a'.repeat(24);
const thread = { type: 'thread', data: { thread_id: T } } as DataFrame;
const token = (seq: number, text: string) => ({ type: 'event', seq, data: { text } }) as unknown as DataFrame;
const reply = (text: string): Message => ({ id: 'b'.repeat(24), text, sender: { type: 'agent' }, cards: [], followup_suggestions: [] });

describe('cutting a text', () => {
  const isHigh = (c: string | undefined) => !!c && /[\ud800-\udbff]/.test(c);
  const isLow = (c: string | undefined) => !!c && /[\udc00-\udfff]/.test(c);

  it('keeps a prefix of at most `max` characters, never half of a surrogate pair', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(text, fc.nat(45), (s, max) => {
        const cut = cutText(s, max);
        expect(s.startsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        if (s.length <= max) expect(cut).toBe(s);
        else expect(cut.length).toBeGreaterThanOrEqual(max - 1);
        expect(isHigh(cut.at(-1)) && isLow(s[cut.length])).toBe(false);
      }),
    );
    // About 1 s alone (fast-check's grapheme strings are slow to make); 6 s beside the other
    // workers on two loaded cores was over the default 5 s.
  }, 30_000);
});

describe('a reply read from the wire', () => {
  it('is cut at the limit and marked, a shorter one left as it is', () => {
    const long = readMessage(reply('x'.repeat(2_000)), 1_000)!;
    expect(long.text).toHaveLength(1_000);
    expect(long.truncated).toBe(true);
    expect(readMessage(reply('short'), 1_000)).not.toHaveProperty('truncated');
    // The message frame of a stream is read without a limit: its turn cuts it (TurnProgress).
    expect(readMessage(reply('x'.repeat(2_000)))!.text).toHaveLength(2_000);
  });

  it('in a REST answer, a rerun and a transcript alike', () => {
    const sent = readSendResponse({ thread_id: T, message: reply('y'.repeat(5_000)) }, 1_000)!;
    expect(sent.message).toMatchObject({ truncated: true });
    expect(sent.message.text).toHaveLength(1_000);
    const transcript = readMessages([reply('z'.repeat(5_000)), reply('fine')], 1_000)!;
    expect(transcript.map((m) => [m.text.length, !!m.truncated])).toEqual([
      [1_000, true],
      [4, false],
    ]);
  });

  it('becomes a message of the log that says it was cut', () => {
    expect(fromWire(readMessage(reply('x'.repeat(2_000)), 1_000)!, 0).truncated).toBe(true);
    expect(fromWire(reply('short'), 0).truncated).toBeFalsy();
  });
});

describe('a streamed reply past the limit', () => {
  it('is cut in the delta that reaches it, which says so; nothing after it is handed on', () => {
    const onToken = vi.fn();
    const onMessage = vi.fn();
    const progress = new TurnProgress(undefined, { onToken, onMessage }, 10);
    progress.apply(thread);
    progress.apply(token(1, 'abcd'));
    progress.apply(token(2, 'efgh'));
    expect(progress.truncated).toBe(false);
    progress.apply(token(3, 'ijklmn'));
    expect(progress.truncated).toBe(true);
    progress.apply(token(4, 'more'));
    progress.apply({ type: 'message', seq: 5, data: reply('abcdefghijklmnmore') } as DataFrame);
    expect(onToken.mock.calls).toEqual([
      ['abcd', 1, false],
      ['efgh', 2, false],
      ['ij', 3, true],
    ]);
    expect(onMessage).not.toHaveBeenCalled();
  });

  it('a delta that comes when the reply is exactly full is an empty cut one', () => {
    const onToken = vi.fn();
    const progress = new TurnProgress(undefined, { onToken }, 4);
    progress.apply(thread);
    progress.apply(token(1, 'abcd'));
    progress.apply(token(2, 'e'));
    expect(onToken.mock.calls).toEqual([
      ['abcd', 1, false],
      ['', 2, true],
    ]);
  });

  it('replays of a resume are not counted twice', () => {
    const onToken = vi.fn();
    const progress = new TurnProgress(undefined, { onToken }, 6);
    progress.apply(thread);
    progress.apply(token(1, 'abc'));
    progress.apply(thread);
    progress.apply(token(1, 'abc'));
    progress.apply(token(2, 'def'));
    expect(progress.truncated).toBe(false);
    expect(onToken.mock.calls.map((c) => c[0]).join('')).toBe('abcdef');
  });

  it('a final message longer than the limit is cut and marked, and the turn ends with it', () => {
    const onMessage = vi.fn();
    const progress = new TurnProgress(undefined, { onMessage }, 1_000);
    progress.apply(thread);
    progress.apply({ type: 'message', seq: 1, data: reply('m'.repeat(3_000)) } as DataFrame);
    expect(progress.message).toMatchObject({ truncated: true });
    expect(progress.message!.text).toHaveLength(1_000);
    expect(onMessage.mock.calls[0]![0]).toBe(progress.message);
  });

  it('a frame too large to read cuts the reply where it is, once the turn has a thread', () => {
    const onToken = vi.fn();
    const early = new TurnProgress(undefined, { onToken }, 1_000);
    expect(early.tooLarge()).toBe(false);
    const progress = new TurnProgress(undefined, { onToken }, 1_000);
    progress.apply(thread);
    progress.apply(token(7, 'so far'));
    expect(progress.tooLarge()).toBe(true);
    expect(progress.truncated).toBe(true);
    expect(onToken.mock.calls.at(-1)).toEqual(['', 7, true]);
  });
});

describe('frames', () => {
  const enc = new TextEncoder();

  it('may hold four times the reply limit, at least a million characters, at most MAX_FRAME', () => {
    expect(frameLimit(REPLY_LENGTH.default)).toBe(1_000_000);
    expect(frameLimit(REPLY_LENGTH.max)).toBe(MAX_FRAME);
    expect(frameLimit(REPLY_LENGTH.min)).toBe(1_000_000);
    expect(frameLimit()).toBe(MAX_FRAME);
  });

  it('one past the limit is not read: the reading ends as done when the caller takes it so, and the body is let go', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(enc.encode(pulled === 1 ? 'data: {"type":"event","seq":1,"data":{"text":"' : 'x'.repeat(50_000)));
      },
    });
    const onFrame = vi.fn();
    const outcome = await readFrames(body, { onFrame, onTooLarge: () => true }, 200_000);
    expect(outcome).toBe('done');
    expect(onFrame).not.toHaveBeenCalled();
    expect(pulled).toBeLessThan(10);
    expect(body.locked).toBe(false);
    // Without the caller's say, such a frame is a protocol error.
    const again = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(enc.encode('data: ' + 'y'.repeat(50_000))) });
    await expect(readFrames(again, { onFrame }, 200_000)).rejects.toMatchObject({ kind: 'protocol' });
  });
});

describe('a streamed turn past the limit, end to end', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });
  const ctx = (maxReply: number): HttpContext => ({
    baseUrl: 'https://agents.example',
    timeoutMs: 5_000,
    tokens: { get: async () => 'token', canRefresh: false, invalidate: () => {} } as unknown as TokenManager,
    maxReply,
  });
  /** A service that streams `frames` (SSE data payloads) and counts its connections and what was read. */
  function service(frames: string[]) {
    const seen = { connections: 0, written: 0, cancelled: false };
    globalThis.fetch = (async () => {
      seen.connections++;
      const enc = new TextEncoder();
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i === frames.length) return controller.close();
          seen.written++;
          controller.enqueue(enc.encode(`data: ${frames[i++]}\n\n`));
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof fetch;
    return seen;
  }
  const tokens = (n: number, text: string) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'event', seq: i + 1, data: { text } }));

  it('ends as complete at the limit: no error, no resume, the rest not read', async () => {
    const seen = service([JSON.stringify({ type: 'thread', data: { thread_id: T } }), ...tokens(1_000, 'x'.repeat(100)), '[DONE]']);
    const deltas: string[] = [];
    let cut = false;
    const result = await streamTurn(
      ctx(1_000),
      { text: 'q', user_id: 'u' },
      { onToken: (text, _seq, last) => (deltas.push(text), (cut ||= !!last)) },
    );
    expect(result).toEqual({ threadId: T, message: null });
    expect(deltas.join('')).toHaveLength(1_000);
    expect(cut).toBe(true);
    expect(seen.connections).toBe(1);
    expect(seen.cancelled).toBe(true);
    expect(seen.written).toBeLessThan(100);
  });

  it('a frame too large to read ends it the same way, with what came before it', async () => {
    const huge = JSON.stringify({ type: 'event', seq: 2, data: { text: 'h'.repeat(1_200_000) } });
    const seen = service([JSON.stringify({ type: 'thread', data: { thread_id: T } }), ...tokens(1, 'before'), huge, '[DONE]']);
    const deltas: Array<[string, boolean]> = [];
    const result = await streamTurn(
      ctx(REPLY_LENGTH.default),
      { text: 'q', user_id: 'u' },
      { onToken: (t, _s, last) => deltas.push([t, !!last]) },
    );
    expect(result).toEqual({ threadId: T, message: null });
    expect(deltas).toEqual([
      ['before', false],
      ['', true],
    ]);
    expect(seen.connections).toBe(1);
  });
});

describe('the reply limit setting (max-reply-length)', () => {
  beforeAll(() => {
    (globalThis as { location?: unknown }).location ??= new URL('https://shop.example/');
  });
  const base = { transport: 'sse', persist: 'local', baseUrl: 'https://agents.example', publishableKey: 'pk' };
  const read = (maxReplyLength: unknown) => {
    const { config, problems } = readConfig({ ...base, maxReplyLength });
    return [config!.maxReplyLength, problems.length];
  };

  it('takes a number within its bounds (rounded down), the attribute as text too; the default when absent', () => {
    expect(read(undefined)).toEqual([REPLY_LENGTH.default, 0]);
    expect(read(50_000)).toEqual([50_000, 0]);
    expect(read('5000')).toEqual([5_000, 0]);
    expect(read(2_500.5)).toEqual([2_500, 0]);
  });

  it('past a bound, that bound; what is not a number, the default; each with a warning', () => {
    expect(read(10)).toEqual([REPLY_LENGTH.min, 1]);
    expect(read(5e9)).toEqual([REPLY_LENGTH.max, 1]);
    expect(read(Infinity)).toEqual([REPLY_LENGTH.max, 1]);
    expect(read('lots')).toEqual([REPLY_LENGTH.default, 1]);
    expect(read(Symbol('x'))).toEqual([REPLY_LENGTH.default, 1]);
    expect(read({})).toEqual([REPLY_LENGTH.default, 1]);
  });
});

describe('the reply in the conversation', () => {
  it('a cut delta marks the reply, and it stays marked when the turn settles without a final message', () => {
    const store = new ConversationStore();
    const message = emptyReply();
    store.apply(startReply, message);
    store.apply(appendDelta, message.key, 'abc');
    expect(store.find(message.key)!.truncated).toBeFalsy();
    store.apply(appendDelta, message.key, 'd', true);
    store.apply(settle, message.key, null, null);
    expect(store.find(message.key)).toMatchObject({ text: 'abcd', truncated: true, state: 'done' });
  });
});

describe('the stored running turn', () => {
  it('holds a reply of at most MAX_TEXT characters: a longer one is not this code’s', () => {
    const record = { body: { text: 'q', user_id: 'u' }, threadId: T, lastSeq: 3, after: null, startedAt: Date.now() };
    expect(readRunningTurn({ ...record, text: 'x'.repeat(MAX_TEXT) })).not.toBe(null);
    expect(readRunningTurn({ ...record, text: 'x'.repeat(MAX_TEXT + 1) })).toBe(null);
  });
});
