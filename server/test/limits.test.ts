import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_PUBLISHABLE_KEY } from '../src/app.js';
import type { Agent, AgentAnswer } from '../src/agents/demo-agent.js';
import { DEMO_KEY_LIMITS, MAX_REPLY_CHARS, MAX_TURN_FRAMES } from '../src/store/limits.js';
import { DATABASES, envelope, inBatches, reference } from './support.js';

/**
 * The reference server is bounded per publishable key (issue #25): a key that grows forgets
 * its own threads and never another key's, each key's requests are limited by its own rate
 * (429 with `Retry-After`), and what a key holds is counted against its own budget.
 * In-process through `app.fetch`: thousands of threads in seconds, no socket. The floods run
 * on the embedded database and on a PostgreSQL server's pool, where the statements of
 * concurrent requests interleave (a budget forgetting a thread as a turn begins on it).
 */

afterEach(() => {
  vi.useRealTimers();
});

interface Health {
  threads: number;
  keys: number;
  bytes: number;
}

describe.each(DATABASES)('a flood from one key (%s)', (database) => {
  it("forgets only the flooding key's threads: 2,500 new threads through the demo key leave another key's readable", async () => {
    // The demo key's rate raised for the flood: what is under test is what it may keep.
    const ref = await reference({ database, limits: { demo: { perSecond: 1e5, burst: 1e6, runningTurns: 1000 } } });
    const other = await ref.mint({ replies: [{ text: 'kept' }] });
    const kept = [await ref.send(other.token, 'first'), await ref.send(other.token, 'second')];

    const demo = await ref.token(DEMO_PUBLISHABLE_KEY);
    const flooded: string[] = [];
    // New threads by turns, and (cheaper, no agent) by channel hand-offs: any route that makes one.
    // Past the demo key's 2,000 (the store kept 5,000 of everyone's before, then pushed out the oldest).
    await inBatches(2500, 500, async (i) => {
      flooded[i] =
        i % 30 === 0
          ? (await ref.send(demo, `flood ${i}`, undefined, `flooder-${i}`)).thread_id
          : (
              await ref.json<{ thread_id: string }>('/messaging/v1/channels/sms/threads', {
                token: demo,
                body: { user_id: `flooder-${i}`, phone_number: '+4915112345678' },
              })
            ).thread_id;
    });

    for (const { thread_id } of kept) {
      const transcript = await ref.json<Array<{ text: string }>>(`/messaging/v1/threads/${thread_id}/messages`, { token: other.token });
      expect(transcript.map((m) => m.text)).toContain('kept');
    }
    // The flooding key keeps its newest threads, within its own count.
    expect((await ref.call(`/messaging/v1/threads/${flooded.at(-1)}/messages`, { token: demo })).status).toBe(200);
    await envelope(await ref.call(`/messaging/v1/threads/${flooded[0]}/messages`, { token: demo }), 404, 'not_found');
    const health = await ref.json<Health>('/__demo/health');
    expect(health.threads).toBeLessThanOrEqual(DEMO_KEY_LIMITS.threads + kept.length);
    expect(health.bytes).toBeLessThanOrEqual(DEMO_KEY_LIMITS.bytes + (await ref.stats(other.key)).usage.bytes);
  }, 60_000);

  it("keeps a key's threads and bytes within its own limits, its oldest threads going first", async () => {
    const ref = await reference({ database });
    const limits = { threads: 40, bytes: 512 * 1024, perSecond: 1e5, burst: 1e6, runningTurns: 1000 };
    const flooder = await ref.mint({ replies: [{ text: 'ok' }], limits });
    const bystander = await ref.mint({ replies: [{ text: 'mine' }] });
    const mine = await ref.send(bystander.token, 'a question of my own');
    const before = (await ref.stats(bystander.key)).usage;

    const threads: string[] = [];
    await inBatches(1000, 250, async (i) => {
      // Long questions: the bytes bind before the thread count does.
      threads[i] = (await ref.send(flooder.token, `${i} ${'x'.repeat(3990)}`)).thread_id;
    });
    const usage = (await ref.stats(flooder.key)).usage;
    expect(usage.threads).toBeLessThanOrEqual(limits.threads);
    expect(usage.bytes).toBeLessThanOrEqual(limits.bytes);
    expect(usage.threads).toBeGreaterThan(0);
    expect((await ref.call(`/messaging/v1/threads/${threads.at(-1)}/messages`, { token: flooder.token })).status).toBe(200);
    expect((await ref.call(`/messaging/v1/threads/${threads[0]}/messages`, { token: flooder.token })).status).toBe(404);

    expect((await ref.stats(bystander.key)).usage).toEqual(before);
    expect((await ref.call(`/messaging/v1/threads/${mine.thread_id}/messages`, { token: bystander.token })).status).toBe(200);
  }, 30_000);

  it('keeps one long thread within its key’s bytes: its oldest messages go, its latest turn stays', async () => {
    const ref = await reference({ database });
    const limits = { bytes: 256 * 1024, perSecond: 1e5, burst: 1e6 };
    const { key, token } = await ref.mint({ replies: [{ text: 'noted' }], limits });
    let threadId: string | undefined;
    for (let i = 0; i < 120; i++) threadId = (await ref.send(token, `turn ${i} ${'y'.repeat(3000)}`, threadId)).thread_id;

    expect((await ref.stats(key)).usage.bytes).toBeLessThanOrEqual(limits.bytes);
    const transcript = await ref.json<Array<{ text: string }>>(`/messaging/v1/threads/${threadId}/messages`, { token });
    expect(transcript.length).toBeLessThan(240);
    expect(transcript.at(-2)!.text).toMatch(/^turn 119 /);
    expect(transcript.at(-1)!.text).toBe('noted');
    expect(transcript[0]!.text).not.toMatch(/^turn 0 /);
  });

  it('forgets whole minted keys, least recently used first, only when they hold too much together', async () => {
    const ref = await reference({ database, limits: { mintedTogether: 3 * 1024 * 1024 } });
    const limits = { bytes: 1024 * 1024, perSecond: 1e5, burst: 1e6 };
    const keys = [];
    for (let n = 0; n < 4; n++) {
      const k = await ref.mint({ replies: [{ text: 'ok' }], limits });
      keys.push(k);
      // Each key fills its own megabyte (and its request log), one after the other.
      for (let i = 0; i < 100; i++) await ref.send(k.token, `${i} ${'z'.repeat(3900)}`);
    }

    expect((await ref.call(`/__demo/keys/${keys[0]!.key}/stats`)).status).toBe(404);
    expect((await ref.stats(keys[3]!.key)).usage.bytes).toBeLessThanOrEqual(limits.bytes);
    expect((await ref.json<Health>('/__demo/health')).bytes).toBeLessThanOrEqual(3 * 1024 * 1024);
    // The demo key is never among them.
    expect((await ref.call('/management/v1/auth/token', { body: { publishable_key: DEMO_PUBLISHABLE_KEY } })).status).toBe(200);
  });
});

describe("a key's request rate", () => {
  it('answers 429 with Retry-After and the envelope past its burst, and recovers as the clock moves', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ref = await reference();
    // The exchange is the first of its five.
    const { token, key } = await ref.mint({ limits: { perSecond: 2, burst: 5 } });
    const other = await ref.mint({ limits: { perSecond: 2, burst: 5 } });
    const welcome = (t: string) => ref.call('/messaging/v1/welcome-message', { token: t });

    for (let i = 0; i < 4; i++) expect((await welcome(token)).status, `request ${i + 2}`).toBe(200);
    const refused = await welcome(token);
    expect(refused.headers.get('retry-after')).toBe('1');
    await envelope(refused, 429, 'rate_limited');
    // Another key's bucket is its own.
    expect((await welcome(other.token)).status).toBe(200);
    // The exchange counts too.
    await envelope(await ref.call('/management/v1/auth/token', { body: { publishable_key: key } }), 429, 'rate_limited');

    vi.setSystemTime(Date.now() + 1000);
    expect((await welcome(token)).status).toBe(200);
    expect((await welcome(token)).status).toBe(200);
    await envelope(await welcome(token), 429, 'rate_limited');
    expect((await ref.stats(key)).limited).toBe(3);
  });

  it('says how long to wait when the rate is slow', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ref = await reference();
    const { token } = await ref.mint({ limits: { perSecond: 0.1, burst: 1 } });
    const res = await ref.call('/messaging/v1/welcome-message', { token });
    expect(res.headers.get('retry-after')).toBe('10');
    vi.setSystemTime(Date.now() + 10_000);
    expect((await ref.call('/messaging/v1/welcome-message', { token })).status).toBe(200);
  });

  it("gives the demo key a rate for many visitors at once, every visitor's together", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ref = await reference();
    const tokens = await Promise.all(Array.from({ length: 3 }, () => ref.token(DEMO_PUBLISHABLE_KEY)));
    let granted = 3;
    for (let i = 0; granted < DEMO_KEY_LIMITS.burst; i++, granted++) {
      expect((await ref.call('/messaging/v1/welcome-message', { token: tokens[i % 3] })).status).toBe(200);
    }
    await envelope(await ref.call('/messaging/v1/welcome-message', { token: tokens[0] }), 429, 'rate_limited');
    vi.setSystemTime(Date.now() + 1000);
    for (let i = 0; i < DEMO_KEY_LIMITS.perSecond; i++) {
      expect((await ref.call('/messaging/v1/welcome-message', { token: tokens[i % 3] })).status).toBe(200);
    }
  });

  it("refuses a turn past the key's running turns (429), and takes it again once one ends", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ref = await reference();
    // The agent thinks for a minute: the turns stay running until the clock moves.
    const { token, key } = await ref.mint({ thinkMs: 60_000, replies: [{ text: 'done' }], limits: { runningTurns: 2 } });
    const stream = () => ref.call('/messaging/v1/messages/stream', { token, body: { text: 'hi', user_id: 'u' } });
    const open = [await stream(), await stream()];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const refused = await stream();
    expect(refused.headers.get('retry-after')).toBe('1');
    await envelope(refused, 429, 'rate_limited');
    expect((await ref.stats(key)).usage.running).toBe(2);

    // The minute, then the replies to their end (a turn that began thinking later, its
    // database on a clock of its own, gets its minute on the next pass).
    let ended = false;
    const replies = Promise.all(open.map((res) => res.text())).finally(() => (ended = true));
    while (!ended) {
      await vi.advanceTimersByTimeAsync(61_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const text of await replies) expect(text).toContain('done');
    expect((await ref.stats(key)).usage.running).toBe(0);
    const again = await stream();
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

describe('one turn', () => {
  const modelLike = (pieces: Iterable<string>): Agent => ({
    description: 'a model',
    welcomeTemplate: () => '',
    suggestionsFor: () => [],
    answer: (): AgentAnswer => ({
      chunks: (async function* () {
        yield* pieces;
      })(),
      rest: () => ({ cards: [], suggestions: [] }),
    }),
  });

  /** One streamed turn answered by `agent`: its frames as a client reads them, and what the stores keep of it. */
  async function turnOf(agent: Agent) {
    const ref = await reference({ agent });
    const { key, token } = await ref.mint();
    const res = await ref.call('/messaging/v1/messages/stream', { token, body: { text: 'q', user_id: 'u' } });
    const frames = [...(await res.text()).matchAll(/^data: (.*)$/gm)]
      .map((m) => m[1]!)
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d) as { type: string; data: { text?: string; code?: string; thread_id?: string } });
    const threadId = frames.find((f) => f.type === 'thread')!.data.thread_id!;
    const transcript = await ref.json<Array<{ text: string }>>(`/messaging/v1/threads/${threadId}/messages`, { token });
    return { frames, transcript, stats: await ref.stats(key) };
  }

  it(`streams at most ${MAX_TURN_FRAMES} token frames: the rest of the text comes in the last one, none lost`, async () => {
    const pieces = Array.from({ length: MAX_TURN_FRAMES + 5000 }, (_, i) => `w${i} `);
    const { frames, transcript, stats } = await turnOf(modelLike(pieces));
    const tokens = frames.filter((f) => f.type === 'event');
    expect(tokens).toHaveLength(MAX_TURN_FRAMES);
    expect(tokens.map((f) => f.data.text).join('')).toBe(pieces.join(''));
    expect(frames.at(-1)).toMatchObject({ type: 'message', data: { text: pieces.join('') } });
    expect(transcript.map((m) => m.text)).toEqual(['q', pieces.join('')]);
    // What the thread holds is what the key holds, and the turn gave its leave back.
    expect(stats.usage.threads).toBe(1);
    expect(stats.usage.bytes).toBeGreaterThan(2 * pieces.join('').length);
    expect(stats.usage.running).toBe(0);
  });

  it(`fails a reply longer than ${MAX_REPLY_CHARS} characters (agents.reply_too_large), never recorded`, async () => {
    const piece = 'x'.repeat(64 * 1024);
    const { frames, transcript } = await turnOf(modelLike(Array.from({ length: MAX_REPLY_CHARS / piece.length + 1 }, () => piece)));
    expect(frames.at(-1)).toMatchObject({ type: 'error', data: { code: 'agents.reply_too_large' } });
    expect(transcript).toHaveLength(0);
  });
});
