import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningTurn } from '../../src/continuity/running-turn.js';
import { lockName } from '../../src/continuity/tabs.js';
import { PREFIX, type PersistMode, createStorage, scopeOf } from '../../src/state/storage.js';
import type { ChatConfig } from '../../src/state/types.js';
import { installLocks } from './support/locks.js';
import { FakeClient, THREAD, apiError, config, conversation, disconnectAll, preload, question, reply, settled } from './support/fakes.js';

/**
 * A send is exactly-once across a reload at any moment (docs/protocol.md "A send and a
 * reload"): what a page stores before its request leaves, and what the next page decides
 * from it with the service's answer to the turn's key: resumed, never received (back in the
 * composer), or unknown.
 */
const KEY = 'f'.repeat(32);
const AFTER = 'e'.repeat(24);
const earlier = [question('Hi', AFTER), reply('Hello!', { id: AFTER })];
const NOT_RECEIVED = () => apiError({ kind: 'http', status: 409, code: 'turn.not_received' });
const NOT_RESUMABLE = () => apiError({ kind: 'http', status: 409, code: 'stream.not_resumable' });

const storage = (persist: PersistMode = 'session') => createStorage(persist, scopeOf(config()));
const draftOf = (persist: PersistMode, threadId = '') => storage(persist).read().drafts?.[threadId];

/** A record as Turns.send stores it: a new conversation (`known`: the thread's second question) whose page went before its `thread` frame. */
const sent = (known: boolean, over: Partial<RunningTurn> = {}): RunningTurn => ({
  body: { text: 'Where is my order?', user_id: 'anon_1', ...(known ? { thread_id: THREAD } : {}) },
  threadId: known ? THREAD : null,
  lastSeq: 0,
  text: '',
  after: known ? AFTER : null,
  startedAt: Date.now() - 100,
  key: KEY,
  ...over,
});

/** The page before this one left `turn` in session storage (and its thread, if it had one). */
function leave(turn: RunningTurn): void {
  storage().write({ threadId: turn.body.thread_id, turn, pending: true });
}

/** What a reload does: this page stops where it is (storage as it was at that moment), and the next one opens on the same storage. */
async function reload(over: Partial<ChatConfig>, client = new FakeClient()) {
  const snapshot = (area: Storage) => Array.from({ length: area.length }, (_, i) => [area.key(i)!, area.getItem(area.key(i)!)!] as const);
  const kept = [localStorage, sessionStorage].map((area) => [area, snapshot(area)] as const);
  disconnectAll();
  for (const [area, items] of kept) {
    area.clear();
    for (const [k, v] of items) area.setItem(k, v);
  }
  const next = await conversation(over, client);
  await settled();
  return next;
}

beforeAll(preload);
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  disconnectAll();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('before the request leaves', () => {
  it('every turn request carries a key of its own, the one stored with the turn', async () => {
    const client = new FakeClient();
    let stored: RunningTurn | undefined;
    client.script = async (_, handlers, opts) => {
      stored = storage().read().turn;
      expect(opts.idempotencyKey).toBe(stored?.key);
      handlers.onThread?.(THREAD);
      return reply('Done.');
    };
    const { chat } = await conversation({ persist: 'session' }, client);
    await chat.send('one');
    await chat.send('two');
    const [first, second] = client.turns.map((t) => t.key);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
  });

  it('the stored draft keeps the question until the turn is stored, in the same task as the request is about to leave', async () => {
    const client = new FakeClient();
    const seen: Array<{ draft: string | undefined; turn: string | undefined }> = [];
    client.script = async (_, handlers) => {
      const state = storage().read();
      seen.push({ draft: state.drafts?.[''], turn: state.turn?.body.text });
      handlers.onThread?.(THREAD);
      return reply('Done.');
    };
    const { chat } = await conversation({ persist: 'session' }, client);
    chat.setDraft('Where is my order?');
    const sending = chat.send('Where is my order?');
    // Out of the composer at once; in storage still, until the turn's record holds it.
    expect(chat.state.draft).toBe('');
    expect(draftOf('session')).toBe('Where is my order?');
    await sending;
    expect(seen).toEqual([{ draft: undefined, turn: 'Where is my order?' }]);
  });

  it('a reload while the tab waits for its lock: the question is in the composer (with what was typed since), nothing was sent', async () => {
    const locks = installLocks(vi.stubGlobal);
    let release!: () => void;
    // Another tab holds the scope's lock a moment (it mirrored the last turn).
    void locks.request(lockName(scopeOf(config({ persist: 'local' }))), {}, () => new Promise<void>((r) => (release = r)));
    const { chat, client } = await conversation({ persist: 'local' });
    chat.setDraft('Where is my order?');
    void chat.send('Where is my order?');
    await settled();
    chat.setDraft('and when');
    expect(storage('local').read().turn).toBeUndefined();
    expect(draftOf('local')).toBe('Where is my order?\nand when');
    expect(client.turns).toEqual([]);
    const next = await reload({ persist: 'local' });
    release();
    await settled();
    expect(next.chat.state.draft).toBe('Where is my order?\nand when');
    expect(next.chat.state.messages).toEqual([]);
    expect(next.client.turns).toEqual([]);
    expect(client.turns).toEqual([]);
  });

  it("another tab's write while the question waits for its turn to be stored does not put it back in the composer", async () => {
    const locks = installLocks(vi.stubGlobal);
    let release!: () => void;
    const scope = scopeOf(config({ persist: 'local' }));
    void locks.request(lockName(scope), {}, () => new Promise<void>((r) => (release = r)));
    const { chat, client } = await conversation({ persist: 'local' });
    chat.setDraft('Where is my order?');
    void chat.send('Where is my order?');
    await settled();
    // Another tab of the scope writes (its history, say): this tab hears it and reads the scope again.
    storage('local').write({ history: [] });
    dispatchEvent(
      Object.assign(new Event('storage'), {
        storageArea: localStorage,
        key: PREFIX + scope,
        newValue: localStorage.getItem(PREFIX + scope),
      }),
    );
    await settled();
    expect(chat.state.draft).toBe('');
    release();
    await settled();
    expect(client.turns.map((t) => t.body.text)).toEqual(['Where is my order?']);
    expect(chat.state.draft).toBe('');
    expect(draftOf('local')).toBeUndefined();
  });

  it('lost to another tab: the question is back in this composer, and kept as its draft for a reload', async () => {
    const locks = installLocks(vi.stubGlobal);
    vi.useFakeTimers();
    void locks.request(lockName(scopeOf(config({ persist: 'local' }))), {}, () => new Promise<void>(() => undefined));
    const { chat } = await conversation({ persist: 'local' });
    chat.setDraft('Where is my order?');
    void chat.send('Where is my order?');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(chat.state.draft).toBe('Where is my order?');
    expect(chat.state.notice).toMatchObject({ kind: 'other-tab' });
    expect(chat.threads.saved?.draftOf(null)).toBe('Where is my order?');
    expect(createStorage('session', `${scopeOf(config())}:tab`).read().drafts?.['']).toBe('Where is my order?');
  });
});

describe('the next page', () => {
  for (const transport of ['sse', 'rest', 'websocket'] as const) {
    it(`a new conversation the service had (${transport}): found by its key over the stream, shown once, its thread taken`, async () => {
      leave(sent(false));
      const client = new FakeClient();
      client.script = async (_, handlers) => {
        handlers.onThread?.(THREAD);
        handlers.onToken?.('On its ', 1);
        handlers.onToken?.('way.', 2);
        return reply('On its way.');
      };
      const { chat, events } = await conversation({ persist: 'session', transport }, client);
      await settled();
      expect(client.turns).toEqual([{ transport: 'sse', body: sent(false).body, resume: { threadId: null, lastSeq: 0 }, key: KEY }]);
      expect(chat.state.messages.map((m) => [m.text, m.state])).toEqual([
        ['Where is my order?', 'done'],
        ['On its way.', 'done'],
      ]);
      expect(chat.threadId).toBe(THREAD);
      expect(events.thread.at(-1)).toMatchObject({ threadId: THREAD, reason: 'created' });
      expect(events.message).toHaveLength(1);
      expect(storage().read().turn).toBeUndefined();
    });
  }

  it('a thread the service had the question of: resumed by its key in that thread', async () => {
    leave(sent(true));
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('On its way.'));
    const { chat } = await conversation({ persist: 'session', threadId: THREAD, transport: 'rest' }, client);
    await settled();
    expect(client.turns).toEqual([{ transport: 'sse', body: sent(true).body, resume: { threadId: THREAD, lastSeq: 0 }, key: KEY }]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'On its way.']);
  });

  for (const known of [false, true]) {
    it(`never received (${known ? 'a thread' : 'a new conversation'}): the question is back in the composer with why; Retry sends it anew`, async () => {
      leave(sent(known));
      const client = new FakeClient();
      client.transcripts.set(THREAD, earlier);
      client.script = async () => {
        throw NOT_RECEIVED();
      };
      const { chat, events } = await conversation({ persist: 'session', ...(known ? { threadId: THREAD } : {}) }, client);
      await settled();
      expect(chat.state.messages.map((m) => m.text)).toEqual(known ? ['Hi', 'Hello!'] : []);
      expect(chat.state.draft).toBe('Where is my order?');
      expect(draftOf('session', known ? THREAD : '')).toBe('Where is my order?');
      expect(chat.state.notice).toMatchObject({ kind: 'unsent', retry: 'send' });
      expect(events.error.map((e) => e.code)).toEqual(['turn.not_received']);
      expect(storage().read().turn).toBeUndefined();
      // The key is spent: Retry is a new message, with a key of its own.
      client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('On its way.'));
      chat.retry();
      await settled();
      expect(client.turns).toHaveLength(2);
      expect(client.turns[1]).toMatchObject({ resume: undefined, body: { text: 'Where is my order?' } });
      expect(client.turns[1]!.key).not.toBe(KEY);
      expect(chat.state.messages.at(-1)?.text).toBe('On its way.');
    });
  }

  it('a service that does not know keys, in a new conversation: nothing to ask the transcript; the question is back, with the notice that it may have been received', async () => {
    leave(sent(false));
    const client = new FakeClient();
    client.script = async () => {
      throw NOT_RESUMABLE();
    };
    const { chat } = await conversation({ persist: 'session' }, client);
    await settled();
    expect(chat.state.messages).toEqual([]);
    expect(chat.state.draft).toBe('Where is my order?');
    expect(chat.state.notice).toMatchObject({ kind: 'stream', retry: 'send' });
  });

  it('a service that does not know keys, in a thread: the transcript settles it, the turn awaited there', async () => {
    vi.useFakeTimers();
    leave(sent(true));
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    client.script = async () => {
      throw NOT_RESUMABLE();
    };
    const { chat } = await conversation({ persist: 'session', threadId: THREAD }, client);
    await settled();
    expect(chat.state.messages.at(-1)).toMatchObject({ text: '', state: 'streaming' });
    client.transcripts.set(THREAD, [...earlier, question('Where is my order?'), reply('On its way.')]);
    await vi.advanceTimersByTimeAsync(1_000);
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Hi', 'Hello!', 'Where is my order?', 'On its way.']);
    expect(chat.state.status).toBe('idle');
  });

  it('a turn shown in part resumes over its own transport from the seq shown, still with its key', async () => {
    leave(sent(true, { lastSeq: 3, text: 'On its' }));
    const client = new FakeClient();
    client.transcripts.set(THREAD, earlier);
    client.script = async (_, handlers) => (handlers.onToken?.(' way.', 4), reply('On its way.'));
    await conversation({ persist: 'session', threadId: THREAD, transport: 'websocket' }, client);
    await settled();
    expect(client.turns).toEqual([{ transport: 'websocket', body: sent(true).body, resume: { threadId: THREAD, lastSeq: 3 }, key: KEY }]);
  });

  it('"never received" once the turn was seen here (a service that forgot the key): not believed; the reply is kept, the question stays asked', async () => {
    const client = new FakeClient();
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      handlers.onToken?.('On its', 1);
      throw NOT_RECEIVED();
    };
    const { chat } = await conversation({ persist: 'session' }, client);
    chat.setDraft('Where is my order?');
    await chat.send('Where is my order?');
    expect(chat.state.messages.map((m) => [m.text, m.state])).toEqual([
      ['Where is my order?', 'done'],
      ['On its', 'interrupted'],
    ]);
    expect(chat.state.draft).toBe('');
    expect(chat.state.notice).toMatchObject({ kind: 'stream', retry: 'load' });
  });

  it('a reload once the turn is stored, before the service answered: the next page asks by key and shows what the service says', async () => {
    const first = new FakeClient();
    // The request leaves; the page goes before anything comes back.
    first.script = () => new Promise(() => undefined);
    const { chat } = await conversation({ persist: 'session' }, first);
    chat.setDraft('Where is my order?');
    void chat.send('Where is my order?');
    await settled();
    const key = first.turns[0]!.key;
    expect(storage().read().turn).toMatchObject({ key, threadId: null });
    const client = new FakeClient();
    client.script = async () => {
      throw NOT_RECEIVED();
    };
    const next = await reload({ persist: 'session' }, client);
    expect(client.turns.map((t) => [t.key, t.resume])).toEqual([[key, { threadId: null, lastSeq: 0 }]]);
    expect(next.chat.state.draft).toBe('Where is my order?');
  });
});
