import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningTurn } from '../../src/continuity/running-turn.js';
import { createStorage, scopeOf } from '../../src/state/storage.js';
import { lockName } from '../../src/continuity/tabs.js';
import { FakeLocks, installLocks } from './support/locks.js';
import { FakeClient, THREAD, apiError, config, conversation, preload, question, reply, settled, disconnectAll } from './support/fakes.js';

/**
 * A turn an earlier page started and did not see end (docs/protocol.md "A turn survives
 * the page"): what the next page decides from the stored record and the transcript.
 */
const AFTER = 'e'.repeat(24);
const stored = (over: Partial<RunningTurn> = {}): RunningTurn => ({
  body: { text: 'Where is my order?', user_id: 'anon_1', thread_id: THREAD },
  threadId: THREAD,
  lastSeq: 3,
  text: 'It is on',
  after: AFTER,
  startedAt: Date.now() - 1000,
  ...over,
});
const earlier = [question('Hi', AFTER), reply('Hello!', { id: AFTER })];

/** The page before this one left `turn` in session storage. */
function leave(turn: RunningTurn): void {
  createStorage('session', scopeOf(config())).write({ threadId: turn.threadId ?? undefined, turn, pending: true });
}
const record = () => createStorage('session', scopeOf(config())).read().turn;

beforeAll(preload);
beforeEach(() => sessionStorage.clear());
afterEach(() => {
  disconnectAll();
  vi.useRealTimers();
});

describe('recovering a turn an earlier page started', () => {
  it('answered in the transcript meanwhile: resumed all the same (the service knows the turn), shown once, the record cleared', async () => {
    leave(stored());
    const client = new FakeClient();
    const INTERACTION = '9'.repeat(24);
    client.transcripts.set(THREAD, [
      ...earlier,
      question('Where is my order?', INTERACTION),
      reply('It is on its way.', { id: INTERACTION }),
    ]);
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      handlers.onToken?.(' its way.', 4);
      return reply('It is on its way.', { id: INTERACTION });
    };
    const { chat } = await conversation({ persist: 'session', threadId: THREAD }, client);
    await settled();
    expect(client.turns[0]!.resume).toEqual({ threadId: THREAD, lastSeq: 3 });
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'It is on its way.']);
    expect(chat.state.status).toBe('idle');
    expect(record()).toBeUndefined();
  });

  for (const [change, transcript] of [
    // The marker's id is gone (ids re-issued): the same question asked before is not this turn.
    ['ids re-issued', [question('Where is my order?', 'a'.repeat(24)), reply('Shipped last week.', { id: 'a'.repeat(24) })]],
    // Another client asked the same in the thread meanwhile, and got another answer.
    [
      'another client asking the same',
      [...earlier, question('Where is my order?', 'b'.repeat(24)), reply('Which order?', { id: 'b'.repeat(24) })],
    ],
  ] as const) {
    it(`a transcript that changed meanwhile (${change}) never makes the running turn vanish`, async () => {
      leave(stored({ prior: 0 }));
      const client = new FakeClient();
      client.transcripts.set(THREAD, [...transcript]);
      const finish = client.hold('It is on its way.');
      const { chat } = await conversation({ persist: 'session', threadId: THREAD }, client);
      await settled();
      // Shown and resumed, whatever the transcript seemed to say.
      expect(chat.state.messages.slice(-2).map((m) => [m.text, m.state])).toEqual([
        ['Where is my order?', 'done'],
        ['It is on', 'streaming'],
      ]);
      expect(client.turns[0]!.resume).toEqual({ threadId: THREAD, lastSeq: 3 });
      finish();
      await settled();
      expect(chat.state.messages.at(-1)).toMatchObject({ text: 'It is on its way.', state: 'done' });
    });
  }

  it('still running: its question and the reply so far show, and the stream resumes after the last seq', async () => {
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      handlers.onToken?.(' its way.', 4);
      return reply('It is on its way.');
    };
    const { chat, events } = await conversation({ persist: 'session', threadId: THREAD }, client);
    await settled();
    expect(client.turns).toHaveLength(1);
    expect(client.turns[0]!.resume).toEqual({ threadId: THREAD, lastSeq: 3 });
    expect(client.turns[0]!.body.text).toBe('Where is my order?');
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'It is on its way.']);
    expect(events.message).toHaveLength(1);
    expect(record()).toBeUndefined();
  });

  it('the question recorded already: the log is the transcript up to it, then the resumed turn', async () => {
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, [...earlier, question('Where is my order?')]);
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      handlers.onToken?.(' its way.', 4);
      return reply('Done.');
    };
    const { chat } = await conversation({ persist: 'session', threadId: THREAD }, client);
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'Done.']);
    expect(chat.state.messages.filter((m) => m.text === 'Where is my order?')).toHaveLength(1);
  });

  it('lost before the service named a thread: its question goes back to the composer', async () => {
    leave(stored({ threadId: null, body: { text: 'Never arrived', user_id: 'anon_1' }, after: null }));
    const client = new FakeClient();
    const { chat } = await conversation({ persist: 'session' }, client);
    await settled();
    expect(client.turns).toEqual([]);
    expect(chat.state.draft).toBe('Never arrived');
    expect(chat.state.status).toBe('idle');
    expect(record()).toBeUndefined();
  });

  it('over REST (nothing to resume): awaited in the transcript until its reply is there', async () => {
    vi.useFakeTimers();
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    const { chat, events } = await conversation({ persist: 'session', threadId: THREAD, transport: 'rest' }, client);
    await settled();
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'It is on', state: 'streaming' });
    client.transcripts.set(THREAD, [...earlier, question('Where is my order?'), reply('It is on its way, arrived meanwhile.')]);
    await vi.advanceTimersByTimeAsync(1_000);
    await settled();
    expect(client.turns).toEqual([]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'It is on its way, arrived meanwhile.']);
    expect(chat.state).toMatchObject({ status: 'idle', turn: null });
    expect(events.message.map((e) => e.message.text)).toEqual(['It is on its way, arrived meanwhile.']);
  });

  it('a stream the service no longer has (409): awaited in the transcript instead', async () => {
    vi.useFakeTimers();
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    client.script = async () => {
      throw apiError({ kind: 'http', status: 409 });
    };
    const { chat } = await conversation({ persist: 'session', threadId: THREAD }, client);
    await settled();
    // Another client's same question with another answer first: not this turn, still awaited.
    client.transcripts.set(THREAD, [...earlier, question('Where is my order?'), reply('Which order?')]);
    await vi.advanceTimersByTimeAsync(1_000);
    await settled();
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'It is on', state: 'streaming' });
    client.transcripts.set(THREAD, [
      ...earlier,
      question('Where is my order?'),
      reply('Which order?'),
      question('Where is my order?'),
      reply('It is on its way.'),
    ]);
    await vi.advanceTimersByTimeAsync(2_000);
    await settled();
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'It is on its way.', state: 'done' });
  });

  it('a thread deleted meanwhile: nothing to show, the question back in the composer, and why', async () => {
    vi.useFakeTimers();
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    const { chat } = await conversation({ persist: 'session', threadId: THREAD, transport: 'rest' }, client);
    await settled();
    client.transcripts.set(THREAD, apiError({ kind: 'http', status: 404 }));
    await vi.advanceTimersByTimeAsync(1_000);
    await settled();
    expect(chat.state.messages).toEqual([]);
    expect(chat.state.draft).toBe('Where is my order?');
    expect(chat.state.notice).toMatchObject({ kind: 'thread-gone' });
    expect(chat.threadId).toBe(null);
  });

  it('a question that never reached the service: given back after the wait, as a turn not taken', async () => {
    vi.useFakeTimers();
    leave(stored());
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    const { chat } = await conversation({ persist: 'session', threadId: THREAD, transport: 'rest' }, client);
    await settled();
    await vi.advanceTimersByTimeAsync(301_000);
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!']);
    expect(chat.state.draft).toBe('Where is my order?');
    // It never reached the service: Retry sends it (it cannot run twice).
    expect(chat.state.notice).toMatchObject({ retry: 'send' });
    expect(chat.state.unsent?.text).toBe('Where is my order?');
  });

  it('ended by the tab that ran it while this page loaded (persist="local"): the transcript is read again, nothing streamed twice', async () => {
    const local = createStorage('local', scopeOf(config({ persist: 'local' })));
    local.write({ threadId: THREAD, turn: stored(), pending: true });
    const client = new FakeClient();
    const INTERACTION = '9'.repeat(24);
    const asked = [...earlier, question('Where is my order?', INTERACTION)];
    client.transcripts.set(THREAD, asked);
    // That tab ends the turn (its record cleared, its answer in the transcript) just as this one asks for the lock.
    class EndingFirst extends FakeLocks {
      override request(...args: Parameters<FakeLocks['request']>): Promise<unknown> {
        local.write({ turn: undefined, pending: undefined });
        client.transcripts.set(THREAD, [...asked, reply('It is on its way.', { id: INTERACTION })]);
        return super.request(...args);
      }
    }
    installLocks(vi.stubGlobal, new EndingFirst());
    const { chat } = await conversation({ persist: 'local', threadId: THREAD }, client);
    await settled();
    expect(client.turns).toEqual([]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'It is on its way.']);
    expect(chat.state.status).toBe('idle');
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('ended by the tab that runs it after this page read it, that tab still holding the lock: the transcript is read again', async () => {
    const scope = scopeOf(config({ persist: 'local' }));
    const local = createStorage('local', scope);
    local.write({ threadId: THREAD, turn: stored(), pending: true });
    const client = new FakeClient();
    const INTERACTION = '9'.repeat(24);
    client.transcripts.set(THREAD, earlier);
    // That tab clears its turn (the service has recorded it) a moment before it lets go of
    // the lock: this page asks for the lock in that moment, after its load read the turn.
    class EndingHeld extends FakeLocks {
      ending = false;
      override request(...args: Parameters<FakeLocks['request']>): Promise<unknown> {
        if (this.ending) {
          local.write({ turn: undefined, pending: undefined });
          client.transcripts.set(THREAD, [
            ...earlier,
            question('Where is my order?', INTERACTION),
            reply('It is on its way.', { id: INTERACTION }),
          ]);
        }
        return super.request(...args);
      }
    }
    const locks = new EndingHeld();
    void locks.request(lockName(scope), () => new Promise(() => undefined));
    locks.ending = true;
    installLocks(vi.stubGlobal, locks);
    const { chat } = await conversation({ persist: 'local', threadId: THREAD }, client);
    await settled();
    expect(client.turns).toEqual([]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'It is on its way.']);
    expect(chat.state.status).toBe('idle');
    vi.unstubAllGlobals();
    localStorage.clear();
  });
});
