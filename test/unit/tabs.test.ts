import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREFIX, createStorage, scopeOf } from '../../src/state/storage.js';
import { userMessage } from '../../src/state/messages.js';
import { appendUser, startTurn } from '../../src/state/store.js';
import {
  FakeClient,
  OTHER_THREAD,
  REPLY_ID,
  THREAD,
  config,
  conversation,
  preload,
  question,
  reply,
  settled,
  disconnectAll,
} from './support/fakes.js';

/**
 * Another tab of the scope wrote (`persist="local"`): this one follows its moves and its
 * turns, through storage events (src/state/saved.ts `watch`, Turns.followTab); not its draft.
 */
const scope = scopeOf(config());
const key = PREFIX + scope;

/** What another tab does: a write to the shared state, and the storage event this tab gets. */
function otherTabWrites(patch: Record<string, unknown>): void {
  const storage = createStorage('local', scope);
  storage.write(patch);
  const event = Object.assign(new Event('storage'), { storageArea: localStorage, key, newValue: localStorage.getItem(key) });
  dispatchEvent(event);
}

beforeAll(preload);
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  disconnectAll();
  vi.useRealTimers();
});

async function twoThreads() {
  const client = new FakeClient();
  client.transcripts.set(THREAD, [question('in the first'), reply('first')]);
  client.transcripts.set(OTHER_THREAD, [question('in the second'), reply('second')]);
  createStorage('local', scope).write({ threadId: THREAD });
  return conversation({ persist: 'local' }, client);
}

describe('following the other tabs', () => {
  it('a move to another thread there shows that thread here', async () => {
    const { chat, events } = await twoThreads();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first']);
    otherTabWrites({ threadId: OTHER_THREAD });
    await settled();
    expect(chat.threadId).toBe(OTHER_THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the second', 'second']);
    expect(events.thread.at(-1)).toMatchObject({ threadId: OTHER_THREAD, reason: 'switched' });
  });

  it('a new conversation there starts one here', async () => {
    const { chat, events } = await twoThreads();
    const storage = createStorage('local', scope);
    storage.clear(['threadId']);
    otherTabWrites({});
    await settled();
    expect(chat.threadId).toBe(null);
    expect(chat.state.messages).toEqual([]);
    expect(events.thread.at(-1)).toMatchObject({ threadId: null, reason: 'reset' });
  });

  it('a late event of a move there does not undo what this tab stored since', async () => {
    const { chat, events } = await twoThreads();
    const storage = createStorage('local', scope);
    // The other tab started a new conversation; its event is still on its way when this
    // tab stores its own thread again (a turn of its own named it): a tab is not told of
    // its own writes, so that late event is the last it hears.
    storage.clear(['threadId']);
    const late = localStorage.getItem(key);
    storage.write({ threadId: THREAD });
    dispatchEvent(Object.assign(new Event('storage'), { storageArea: localStorage, key, newValue: late }));
    await settled();
    expect(chat.threadId).toBe(THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first']);
    expect(events.thread.filter((e) => e.reason === 'reset')).toEqual([]);
  });

  it('a draft typed or sent there never replaces the one here, and nothing is written back', async () => {
    const { chat } = await twoThreads();
    chat.setDraft('typed here');
    const writes = vi.spyOn(localStorage, 'setItem');
    otherTabWrites({ drafts: { [THREAD]: 'typed in the other tab' } });
    otherTabWrites({ drafts: {} });
    writes.mockClear();
    await settled();
    expect(chat.state.draft).toBe('typed here');
    expect(writes).not.toHaveBeenCalled();
  });

  it('a move there keeps what was typed here, now in the conversation moved to', async () => {
    const { chat } = await twoThreads();
    chat.setDraft('half a question');
    otherTabWrites({ threadId: OTHER_THREAD, drafts: { [OTHER_THREAD]: 'typed there' } });
    await settled();
    expect(chat.threadId).toBe(OTHER_THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the second', 'second']);
    expect(chat.state.draft).toBe('half a question');
    expect(chat.threads.saved?.draftOf(OTHER_THREAD)).toBe('half a question');
  });

  it('a move there with nothing typed here shows the draft kept for that conversation', async () => {
    const { chat } = await twoThreads();
    otherTabWrites({ threadId: OTHER_THREAD, drafts: { [OTHER_THREAD]: 'typed there' } });
    await settled();
    expect(chat.state.draft).toBe('typed there');
  });

  it('a move made there while a turn runs here is followed when the turn ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { chat, client } = await twoThreads();
    const finish = client.hold('done');
    const sent = chat.send('q');
    await settled();
    otherTabWrites({ threadId: OTHER_THREAD });
    await settled();
    expect(chat.threadId).toBe(THREAD);
    finish();
    await sent;
    await vi.runAllTimersAsync();
    await settled();
    expect(chat.threadId).toBe(OTHER_THREAD);
  });

  it('a turn there that ended before this tab heard of it shows here, as the service has it', async () => {
    const { chat, client } = await twoThreads();
    const storage = createStorage('local', scope);
    // The other tab stored its turn as it began; the event reaches this tab (its turns' code
    // fetched first, on a busy page) only when that turn has ended and its record is gone.
    storage.write({
      turn: {
        body: { text: 'from there', user_id: 'u' },
        threadId: THREAD,
        lastSeq: 0,
        text: '',
        after: null,
        startedAt: Date.now(),
        key: 'a1'.repeat(16),
      },
    });
    const started = localStorage.getItem(key);
    expect(started).toContain('from there');
    storage.clear(['turn']);
    client.transcripts.set(THREAD, [question('in the first'), reply('first'), question('from there'), reply('its reply')]);
    dispatchEvent(Object.assign(new Event('storage'), { storageArea: localStorage, key, newValue: started }));
    await settled();
    expect(chat.threadId).toBe(THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first', 'from there', 'its reply']);
    // More late events of that turn (each of its writes is one) load nothing more.
    const loads = client.calls.filter((c) => c.startsWith('transcript')).length;
    dispatchEvent(Object.assign(new Event('storage'), { storageArea: localStorage, key, newValue: started }));
    await settled();
    expect(client.calls.filter((c) => c.startsWith('transcript')).length).toBe(loads);
  });

  it('a late turn of there loads nothing while a turn of this tab starts (the transcript would take its question away)', async () => {
    const { chat, client } = await twoThreads();
    const storage = createStorage('local', scope);
    storage.write({
      turn: { body: { text: 'from there', user_id: 'u' }, threadId: THREAD, lastSeq: 0, text: '', after: null, startedAt: Date.now() },
    });
    const started = localStorage.getItem(key);
    storage.clear(['turn']);
    // This tab's question is in the log and its turn started; its request waits for the turns' code.
    const mine = userMessage('from here');
    chat.store.apply(appendUser, mine);
    chat.store.apply(startTurn, mine.key);
    const loads = client.calls.filter((c) => c.startsWith('transcript')).length;
    dispatchEvent(Object.assign(new Event('storage'), { storageArea: localStorage, key, newValue: started }));
    await settled();
    expect(client.calls.filter((c) => c.startsWith('transcript')).length).toBe(loads);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first', 'from here']);
  });

  it('history written there is taken over here', async () => {
    const { chat } = await twoThreads();
    otherTabWrites({ history: [{ id: OTHER_THREAD, title: 'From the other tab', updatedAt: new Date().toISOString() }] });
    await settled();
    expect(chat.history.map((e) => e.title)).toEqual(['From the other tab']);
  });
});

/**
 * A tab loads the conversation (it opened, or a launcher was opened) while another tab's
 * turn ends. The service records a turn when it ends, and this tab reads the transcript
 * before the stored turn: a turn over by then was in neither, and the launcher showed the
 * conversation without it (in CI, Firefox on a loaded machine).
 */
describe('a turn there that ends while this tab reads the thread', () => {
  const before = [question('in the first'), reply('first')];
  const after = [...before, question('from there'), reply('its reply')];
  const there = () => ({
    body: { text: 'from there', user_id: 'u', thread_id: THREAD },
    threadId: THREAD,
    lastSeq: 2,
    text: 'its',
    after: REPLY_ID,
    startedAt: Date.now(),
    key: 'a1'.repeat(16),
  });

  /** The service answers this tab's first read of the thread with the transcript as it is now, once `release()` is called. */
  function slowFirstRead(client: FakeClient): () => void {
    let release = (): void => undefined;
    const read = client.transcript.bind(client);
    let first = true;
    client.transcript = async (id: string) => {
      if (!first) return read(id);
      first = false;
      const answer = await read(id);
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    };
    return () => release();
  }

  const reads = (client: FakeClient) => client.calls.filter((c) => c.startsWith('transcript')).length;

  it('stored when the read began: the thread is read again after its end, and shows it', async () => {
    const client = new FakeClient();
    client.transcripts.set(THREAD, before);
    createStorage('local', scope).write({ threadId: THREAD, turn: there() });
    const release = slowFirstRead(client);
    const { chat } = await conversation({ persist: 'local' }, client);
    expect(chat.state.ready).toBe(false);
    // The turn ends there: the service records it, then its tab clears it.
    client.transcripts.set(THREAD, after);
    otherTabWrites({ turn: undefined });
    release();
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first', 'from there', 'its reply']);
    expect(chat.state.status).toBe('idle');
    expect(reads(client)).toBe(2);
  });

  it('started and ended during the read (heard of meanwhile): the thread is read again, and shows it', async () => {
    const client = new FakeClient();
    client.transcripts.set(THREAD, before);
    createStorage('local', scope).write({ threadId: THREAD });
    const release = slowFirstRead(client);
    const { chat } = await conversation({ persist: 'local' }, client);
    otherTabWrites({ turn: there() });
    client.transcripts.set(THREAD, after);
    otherTabWrites({ turn: undefined });
    await settled();
    release();
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['in the first', 'first', 'from there', 'its reply']);
    expect(reads(client)).toBe(2);
  });

  it('still running when the read ends: read once, and shown from the tab that runs it', async () => {
    const client = new FakeClient();
    client.transcripts.set(THREAD, before);
    const turn = there();
    createStorage('local', scope).write({ threadId: THREAD, turn });
    const release = slowFirstRead(client);
    const { chat } = await conversation({ persist: 'local' }, client);
    otherTabWrites({ turn: { ...turn, lastSeq: 3, text: 'its re' } });
    release();
    await settled();
    expect(reads(client)).toBe(1);
    expect(chat.state.turn?.mirrored).toBe(true);
  });
});
