import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningTurn } from '../../src/continuity/running-turn.js';
import { ORPHAN_MS, readTabMessage, type TabMessage } from '../../src/continuity/tabs.js';
import { createStorage, scopeOf } from '../../src/state/storage.js';
import { FakeClient, THREAD, config, conversation, preload, question, reply, settled, disconnectAll } from './support/fakes.js';

/**
 * Tabs share one conversation (`persist="local"`, docs/protocol.md "Tabs"): the tab that
 * talks to the service posts the turn over a BroadcastChannel, the others show it. Here
 * the owner is this test, posting what an owner posts; the browser suite runs real tabs.
 * Node has BroadcastChannel but no Web Locks: the path without them (an owner silent for
 * ORPHAN_MS is gone) is the one a browser without Web Locks takes.
 */
const scope = scopeOf(config());
const running = (over: Partial<RunningTurn> = {}): RunningTurn => ({
  body: { text: 'Which size?', user_id: 'anon_1', thread_id: THREAD },
  threadId: THREAD,
  lastSeq: 1,
  text: 'M',
  after: null,
  startedAt: Date.now(),
  ...over,
});

/** The other tab: its channel, what it heard, and the turn it stores. */
function owner() {
  const channel = new BroadcastChannel(`agent-chat:v1:${scope}`);
  const heard: TabMessage[] = [];
  channel.onmessage = (event) => {
    const message = readTabMessage(event.data);
    if (message) heard.push(message);
  };
  return {
    heard,
    post: (message: TabMessage) => channel.postMessage(message),
    store: (turn: RunningTurn | null) => createStorage('local', scope).write({ threadId: THREAD, turn: turn ?? undefined }),
    close: () => channel.close(),
  };
}

/** Lets the channel deliver (a real task, not a microtask). */
const delivered = () => new Promise((resolve) => setImmediate(resolve)).then(settled);

/** Delivers until `predicate` holds (a few tasks at most). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !predicate(); i++) await delivered();
}

let other: ReturnType<typeof owner>;
beforeAll(preload);
beforeEach(() => {
  localStorage.clear();
  other = owner();
});
afterEach(() => {
  disconnectAll();
  other.close();
  vi.useRealTimers();
});

async function mirroring() {
  other.store(running());
  const client = new FakeClient();
  client.transcripts.set(THREAD, [question('Hi', 'f'.repeat(24)), reply('Hello', { id: 'f'.repeat(24) })]);
  const tab = await conversation({ persist: 'local', threadId: THREAD }, client);
  await delivered();
  return tab;
}

describe("another tab's turn", () => {
  it('asks the tab that runs it for the turn so far, and waits for it', async () => {
    const { chat } = await mirroring();
    await until(() => other.heard.length > 0);
    expect(other.heard).toContainEqual({ type: 'sync' });
    expect(chat.state.turn).toEqual({ user: null, reply: null, mirrored: true });
    expect(chat.turnRunning).toBe(true);
  });

  it('shows the turn so far, then each token, then the final reply, told once', async () => {
    const { chat, events, client } = await mirroring();
    other.post({ type: 'turn', id: 't1', turn: running() });
    await delivered();
    expect(chat.state.messages.map((m) => [m.text, m.state])).toEqual([
      ['Hi', 'done'],
      ['Hello', 'done'],
      ['Which size?', 'done'],
      ['M', 'streaming'],
    ]);
    expect(chat.state.status).toBe('streaming');
    other.post({ type: 'token', id: 't1', seq: 2, text: ', I think' });
    other.post({ type: 'token', id: 't1', seq: 2, text: ' (again)' });
    other.post({ type: 'token', id: 'other', seq: 3, text: ' (not ours)' });
    await delivered();
    expect(chat.state.messages.at(-1)!.text).toBe('M, I think');
    other.post({ type: 'end', id: 't1', outcome: 'done', message: reply('M fits.') });
    await delivered();
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'M fits.', state: 'done' });
    expect(chat.state).toMatchObject({ status: 'idle', turn: null });
    expect(events.message.map((e) => e.message.text)).toEqual(['M fits.']);
    expect(client.turns).toEqual([]);
  });

  it('a turn that ended without a reply here: the thread is loaded as the service has it', async () => {
    const { chat, client } = await mirroring();
    other.post({ type: 'turn', id: 't1', turn: running() });
    await delivered();
    client.transcripts.set(THREAD, [question('Which size?'), reply('From the service.')]);
    // As an owner does: the turn leaves storage, then the others hear that it ended.
    other.store(null);
    other.post({ type: 'end', id: 't1', outcome: 'failed', message: null });
    await delivered();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Which size?', 'From the service.']);
    expect(chat.state.turn).toBe(null);
  });

  it('Stop here asks the tab that runs it to stop', async () => {
    const { chat } = await mirroring();
    other.post({ type: 'turn', id: 't1', turn: running() });
    await delivered();
    chat.stop();
    await delivered();
    expect(other.heard).toContainEqual({ type: 'stop', id: 't1' });
  });

  it('takes the turn over, from where it was shown, when its tab falls silent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { chat, client } = await mirroring();
    other.post({ type: 'turn', id: 't1', turn: running() });
    await delivered();
    other.post({ type: 'token', id: 't1', seq: 2, text: 'L' });
    await delivered();
    client.script = async (_, handlers) => {
      handlers.onToken?.('!', 3);
      return reply('ML!');
    };
    // The owner tab went away mid-turn (its record stays); this one resumes it after the silence.
    await vi.advanceTimersByTimeAsync(ORPHAN_MS - 1_000);
    await delivered();
    expect(client.turns, 'not before the silence').toHaveLength(0);
    for (let i = 0; i < 10 && !client.turns.length; i++) {
      await vi.advanceTimersByTimeAsync(500);
      await delivered();
    }
    await until(() => chat.state.turn === null);
    expect(client.turns).toHaveLength(1);
    expect(client.turns[0]!.resume).toEqual({ threadId: THREAD, lastSeq: 2 });
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'ML!', state: 'done' });
    expect(chat.state.turn).toBe(null);
  });

  it("a new conversation's turn whose tab went before the thread frame: taken over by its key, not handed round", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const unnamed = running({
      body: { text: 'Which size?', user_id: 'anon_1' },
      threadId: null,
      lastSeq: 0,
      text: '',
      key: 'k'.repeat(32),
    });
    createStorage('local', scope).write({ turn: unnamed });
    const client = new FakeClient();
    client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('M fits.'));
    const { chat } = await conversation({ persist: 'local' }, client);
    other.post({ type: 'turn', id: 't1', turn: unnamed });
    await delivered();
    for (let i = 0; i < 40 && !client.turns.length; i++) {
      await vi.advanceTimersByTimeAsync(500);
      await delivered();
    }
    await until(() => chat.state.turn === null);
    expect(client.turns).toEqual([{ transport: 'sse', body: unnamed.body, resume: { threadId: null, lastSeq: 0 }, key: unnamed.key }]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Which size?', 'M fits.']);
    expect(chat.threadId).toBe(THREAD);
  });

  it('a turn already over when its tab falls silent is not run again: the transcript shows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { chat, client } = await mirroring();
    other.store(null);
    client.transcripts.set(THREAD, [question('Which size?'), reply('Done elsewhere.')]);
    for (let i = 0; i < 20 && chat.state.turn; i++) {
      await vi.advanceTimersByTimeAsync(500);
      await delivered();
    }
    expect(client.turns).toEqual([]);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Which size?', 'Done elsewhere.']);
  });
});
