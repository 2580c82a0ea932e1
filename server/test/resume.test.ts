import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESUME_WINDOW_MS } from '../src/messaging/routes.js';
import { reference } from './support.js';

/**
 * The reference's own rules, followed literally by a client (issue #38, item 7): a new
 * conversation's stream, dropped and sent again unchanged with `Last-Event-ID` (no thread,
 * no idempotency key), resumes; each sequenced frame has its `seq` on an `id:` line; a
 * card's `rendered_jsx` carries the same absolute image URL as its `json_data`.
 */

afterEach(() => {
  vi.useRealTimers();
});

interface Frame {
  id?: string;
  data: string;
}

/** The SSE events of a response, read until `stop` says so (then the connection is let go) or the end. */
async function events(res: Response, stop: (events: Frame[]) => boolean = () => false): Promise<Frame[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const out: Frame[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
        const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
        if (data.length) out.push({ data: data.join('\n'), ...(id === undefined ? {} : { id }) });
        if (stop(out)) return out;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const parsed = (frame: Frame) => JSON.parse(frame.data) as { type: string; seq?: number; data: { thread_id?: string; text?: string } };

async function slowKey(paceMs = 40) {
  const ref = await reference();
  const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
  // Tokens that outlive the resume window: past it, the turn is what is refused, not the token.
  const minted = await ref.mint({ paceMs, tokenTtl: 3600, replies: [{ text: words }] });
  const stream = (body: object, headers: Record<string, string> = {}, token = minted.token) =>
    ref.call('/messaging/v1/messages/stream', { token, body, headers });
  return { ref, ...minted, words, stream };
}

describe('a new conversation’s stream sent again unchanged with Last-Event-ID', () => {
  it('resumes its turn: the frames after that seq, the thread it made, the turn run once', async () => {
    const { ref, key, words, stream } = await slowKey();
    const body = { text: 'Tell me about tents', user_id: 'literal-client' };
    const first = await events(await stream(body), (got) => got.filter((f) => parsed(f).type === 'event').length >= 4);
    const threadId = parsed(first[0]!).data.thread_id!;
    const last = parsed(first.at(-1)!).seq!;

    const again = await events(await stream(body, { 'last-event-id': String(last) }));
    expect(parsed(again[0]!)).toMatchObject({ type: 'thread', data: { thread_id: threadId } });
    expect(again.at(-1)!.data).toBe('[DONE]');
    const frames = again.slice(1, -1).map(parsed);
    expect(frames.every((f) => f.seq! > last)).toBe(true);
    const text = [...first.slice(1).map(parsed), ...frames]
      .filter((f) => f.type === 'event')
      .map((f) => f.data.text)
      .join('');
    expect(text).toBe(words);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('finds only its own caller’s turn, for that question, while it is recent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { ref, key, stream } = await slowKey(0);
    const body = { text: 'Which stove?', user_id: 'literal-client' };
    const first = await events(await stream(body));
    const last = parsed(first.at(-2)!).seq!;
    // Another token of the same key (another page): not its turn.
    const other = await ref.token(key);
    const refused = await stream(body, { 'last-event-id': String(last) }, other);
    expect(refused.status).toBe(409);
    // Another question, another user: nothing to resume.
    expect((await stream({ ...body, text: 'Which tent?' }, { 'last-event-id': String(last) })).status).toBe(409);
    expect((await stream({ ...body, user_id: 'someone' }, { 'last-event-id': String(last) })).status).toBe(409);
    // A seq past what the turn sent is not this turn's.
    expect((await stream(body, { 'last-event-id': '0' })).status).toBe(200);
    // Past the window, a stored turn is not resumed.
    vi.setSystemTime(Date.now() + RESUME_WINDOW_MS + 1000);
    expect((await stream(body, { 'last-event-id': String(last) })).status).toBe(409);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });
});

describe('a stream resume naming its thread', () => {
  it('attaches only for the question’s own user, as asked', async () => {
    const { ref, key, stream } = await slowKey(0);
    const body = { text: 'Which boots?', user_id: 'visitor-a' };
    const first = await events(await stream(body));
    const threadId = parsed(first[0]!).data.thread_id!;
    const resume = (user: string) => stream({ ...body, user_id: user, thread_id: threadId }, { 'last-event-id': '0' });
    expect((await resume('visitor-b')).status).toBe(409);
    const own = await resume('visitor-a');
    expect(own.status).toBe(200);
    expect(parsed((await events(own))[0]!).data.thread_id).toBe(threadId);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });
});

describe('the frames a stream writes', () => {
  it('have their seq on an id: line (event and message), none on thread and error frames', async () => {
    const ref = await reference();
    const { token } = await ref.mint({ paceMs: 0, replies: [{ text: 'one two three' }] });
    const frames = await events(await ref.call('/messaging/v1/messages/stream', { token, body: { text: 'hi', user_id: 'u' } }));
    for (const frame of frames) {
      if (frame.data === '[DONE]') continue;
      const { type, seq } = parsed(frame);
      if (type === 'event' || type === 'message') expect(frame.id, type).toBe(String(seq));
      else expect(frame.id, type).toBeUndefined();
    }
    const failing = await ref.mint({ paceMs: 0, errorFrame: { after: 2 } });
    const cut = await events(await ref.call('/messaging/v1/messages/stream', { token: failing.token, body: { text: 'hi', user_id: 'u' } }));
    const error = cut.find((f) => f.data !== '[DONE]' && parsed(f).type === 'error')!;
    expect(error.id).toBeUndefined();
  });

  it('give a card’s rendered_jsx the absolute image URL its json_data has', async () => {
    const ref = await reference();
    const token = await ref.token('pk_demo_shop');
    const { message } = await ref.json<{
      message: { cards: Array<{ rendered_jsx: string; json_data: { entity: { image_url: string } } }> };
    }>('/messaging/v1/messages', { token, body: { text: 'Show me backpacks', user_id: 'u' } });
    expect(message.cards.length).toBeGreaterThan(0);
    for (const card of message.cards) {
      expect(card.json_data.entity.image_url).toMatch(/^http:\/\/reference\.test\/__demo\/images\//);
      expect(card.rendered_jsx).toContain(`imageUrl={${JSON.stringify(card.json_data.entity.image_url)}}`);
    }
  });
});
