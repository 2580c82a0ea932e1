import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  OTHER_THREAD,
  REPLY_ID,
  THREAD,
  apiError,
  code,
  conversation,
  preload,
  question,
  reply,
  settled,
  disconnectAll,
} from './support/fakes.js';

beforeAll(preload);
afterEach(() => {
  disconnectAll();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('opening a conversation', () => {
  it('a new one: the welcome with its placeholders filled, and the starters', async () => {
    const { chat, events, client } = await conversation();
    expect(chat.state).toMatchObject({ welcome: 'Hi Ada!', starters: ['Track my order'], messages: [], ready: true, status: 'idle' });
    expect(events.ready).toEqual([{ threadId: null }]);
    expect(client.calls).toEqual(['welcome', 'suggestions']);
  });

  it('a stored thread: its transcript, no starters asked for', async () => {
    const { FakeClient } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.transcripts.set(THREAD, [question('Where is it?'), reply('On its way.')]);
    const { chat, events } = await conversation({ threadId: THREAD }, client);
    expect(chat.state.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Where is it?'],
      ['agent', 'On its way.'],
    ]);
    expect(client.calls).not.toContain('suggestions');
    expect(events.thread).toEqual([{ threadId: THREAD, previousThreadId: null, reason: 'switched' }]);
  });

  it('a thread the service no longer has: said once, and the next message starts a new one', async () => {
    const { chat } = await conversation({ threadId: THREAD });
    expect(chat.threadId).toBe(null);
    expect(chat.state.notice).toMatchObject({ kind: 'thread-gone', retry: null });
    expect(chat.state.status).toBe('idle');
  });

  it('a thread id that is not one is let go before the load says it is loading', async () => {
    const { ChatController } = await import('../../src/state/chat-controller.js');
    const { FakeClient, FakeHost, code, config } = await import('./support/fakes.js');
    const host = new FakeHost();
    const chat = new ChatController(host as unknown as HTMLElement & InstanceType<typeof FakeHost>, {
      code,
      createClient: () => new FakeClient() as unknown as import('../../src/client/client.js').AgentClient,
    });
    const atLoading: Array<string | null> = [];
    chat.store.subscribe((_, change) => change === 'loading' && atLoading.push(chat.threadId));
    chat.configure(config({ threadId: 'not a thread id' }));
    chat.activate();
    await settled();
    expect(atLoading).toEqual([null]);
    expect(chat.state.status).toBe('idle');
    chat.hostDisconnected();
  });

  it('a load that fails: a notice whose Retry loads again, and agent-chat-error', async () => {
    const { FakeClient } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.loadError = apiError({ kind: 'http', status: 503 });
    const { chat, events } = await conversation({}, client);
    expect(chat.state).toMatchObject({ status: 'error', ready: false, notice: { kind: 'server', retry: 'load' } });
    expect(events.error).toHaveLength(1);
    client.loadError = null;
    chat.retry();
    await settled();
    expect(chat.state).toMatchObject({ status: 'idle', ready: true, notice: null });
  });

  it('calls nothing before it is activated (an unopened launcher)', async () => {
    const { ChatController } = await import('../../src/state/chat-controller.js');
    const { FakeClient, FakeHost, config } = await import('./support/fakes.js');
    const client = new FakeClient();
    const chat = new ChatController(new FakeHost() as never, { code, createClient: () => client as never });
    chat.configure(config());
    await settled();
    expect(client.calls).toEqual([]);
    chat.activate();
    await settled();
    expect(client.calls).toEqual(['welcome', 'suggestions']);
  });
});

describe('sending a question', () => {
  it('shows the question, streams the reply and settles it, then tells the host', async () => {
    const { chat, events, client } = await conversation();
    const seen: string[] = [];
    chat.store.subscribe((s, change) => seen.push(`${change}:${s.status}`));
    await chat.send('  Where is my order?  ');
    expect(chat.state.messages.map((m) => [m.role, m.text, m.state])).toEqual([
      ['user', 'Where is my order?', 'done'],
      ['agent', 'Hello.', 'done'],
    ]);
    expect(seen).toEqual([
      'appendUser:idle',
      'startTurn:connecting',
      'startReply:connecting',
      'appendDelta:streaming',
      'appendDelta:streaming',
      'settle:idle',
    ]);
    expect(events.send).toEqual([{ text: 'Where is my order?', threadId: null, imageUrl: null }]);
    expect(events.message.map((d) => d.message.text)).toEqual(['Hello.']);
    expect(events.thread).toEqual([{ threadId: THREAD, previousThreadId: null, reason: 'created' }]);
    expect(client.turns[0]!.body).toMatchObject({ text: 'Where is my order?', agent_variables: { static: { name: 'Ada' } } });
    expect(chat.state.turn).toBe(null);
  });

  it('sends nothing when the host cancels agent-chat-send, or the text is blank', async () => {
    const { chat, host, client } = await conversation();
    host.addEventListener('agent-chat-send', (e) => e.preventDefault(), { once: true });
    await chat.send('no');
    await chat.send('   ');
    expect(chat.state.messages).toEqual([]);
    expect(client.turns).toEqual([]);
  });

  it("the page's send() calls: a burst of three, then one a second, with one warning; the reader's own sends are not counted", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { chat, client } = await conversation();
    // Every turn fails at once: a listener that sends again on each error would loop.
    client.script = async () => {
      throw apiError({ kind: 'http', status: 500 });
    };
    for (let i = 0; i < 10; i++) await chat.send(`host ${i}`, undefined, true);
    expect(client.turns.map((t) => t.body.text)).toEqual(['host 0', 'host 1', 'host 2']);
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('more than once a second'))).toHaveLength(1);
    await chat.send('typed by the reader');
    expect(client.turns).toHaveLength(4);
    vi.advanceTimersByTime(1_000);
    await chat.send('host again', undefined, true);
    await chat.send('host once more', undefined, true);
    expect(client.turns.map((t) => t.body.text).slice(4)).toEqual(['host again']);
    warn.mockRestore();
  });

  it('sends nothing while a turn runs', async () => {
    const { chat, client } = await conversation();
    const finish = client.hold('done');
    const first = chat.send('one');
    await settled();
    await chat.send('two');
    finish();
    await first;
    expect(client.turns.map((t) => t.body.text)).toEqual(['one']);
  });

  it('clears the draft it sent, and keeps one that is different', async () => {
    const { chat } = await conversation();
    chat.setDraft('hello');
    await chat.send('hello');
    expect(chat.state.draft).toBe('');
    chat.setDraft('still typing');
    await chat.send('something else');
    expect(chat.state.draft).toBe('still typing');
  });

  it('offline: the question waits in the log and goes out when the browser is back', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const { chat, client } = await conversation();
    await chat.send('later');
    expect(chat.state.messages[0]).toMatchObject({ text: 'later', state: 'queued' });
    expect(chat.state.notice).toMatchObject({ kind: 'offline', retry: 'send' });
    expect(client.turns).toEqual([]);
    vi.stubGlobal('navigator', { onLine: true });
    dispatchEvent(new Event('online'));
    await settled();
    expect(client.turns.map((t) => t.body.text)).toEqual(['later']);
    expect(chat.state.messages.map((m) => m.state)).toEqual(['done', 'done']);
  });

  it('a turn the service did not take: out of the log, its text back in the composer, Retry sends it', async () => {
    const { chat, client, events } = await conversation();
    chat.setDraft('half a thought');
    client.script = async () => {
      throw apiError({ kind: 'network' });
    };
    await chat.send('Where is my order?');
    expect(chat.state.messages).toEqual([]);
    expect(chat.state.draft).toBe('Where is my order?\nhalf a thought');
    expect(chat.state.notice).toMatchObject({ kind: 'network', retry: 'send' });
    expect(chat.state.unsent?.text).toBe('Where is my order?');
    expect(events.error.map((e) => e.code)).toEqual(['network']);
    client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('Found it.'));
    // Pressed twice before the turns answer: asked once.
    chat.retry();
    chat.retry();
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['Where is my order?', 'Found it.']);
    expect(chat.state.draft).toBe('half a thought');
    expect(client.turns.filter((t) => t.body.text === 'Where is my order?')).toHaveLength(2);
  });

  it('a turn that may have run in this thread: Retry reloads the thread instead of asking twice', async () => {
    const { FakeClient } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.transcripts.set(THREAD, [question('a'), reply('b')]);
    const { chat } = await conversation({ threadId: THREAD }, client);
    client.script = async () => {
      throw apiError({ kind: 'http', status: 500, mayHaveRun: true });
    };
    await chat.send('again?');
    expect(chat.state.notice).toMatchObject({ retry: 'load' });
    expect(chat.state.draft).toBe('again?');
  });

  it('a stream cut after the service took the turn keeps what arrived, interrupted; Retry reloads', async () => {
    const { chat, client } = await conversation();
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      handlers.onToken?.('Part', 1);
      throw apiError({ kind: 'stream', message: 'dropped' });
    };
    await chat.send('q');
    expect(chat.state.messages.map((m) => [m.text, m.state])).toEqual([
      ['q', 'done'],
      ['Part', 'interrupted'],
    ]);
    expect(chat.state.notice).toMatchObject({ retry: 'load' });
    expect(chat.state.status).toBe('error');
  });

  it('stop keeps what arrived, marked stopped; a reply with nothing yet goes', async () => {
    const { chat, client } = await conversation();
    client.script = (_, handlers, opts) =>
      new Promise((_, reject) => {
        handlers.onThread?.(THREAD);
        handlers.onToken?.('Some', 1);
        opts.signal?.addEventListener('abort', () => reject(apiError({ kind: 'network' })));
      });
    const sent = chat.send('q');
    await settled();
    expect(chat.turnRunning).toBe(true);
    chat.stop();
    await sent;
    expect(chat.state.messages.map((m) => [m.text, m.state])).toEqual([
      ['q', 'done'],
      ['Some', 'stopped'],
    ]);
    expect(chat.state).toMatchObject({ status: 'idle', notice: null, turn: null });
  });

  it('a thread deleted on the service: the question starts a new conversation, and the reader is told why', async () => {
    const { FakeClient } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.transcripts.set(THREAD, [question('a'), reply('b')]);
    const { chat, events } = await conversation({ threadId: THREAD }, client);
    client.script = async (body, handlers) => {
      if (body.thread_id) throw apiError({ kind: 'http', status: 404 });
      handlers.onThread?.(OTHER_THREAD);
      return reply('New here.');
    };
    await chat.send('hello?');
    await settled();
    expect(client.turns.map((t) => t.body.thread_id)).toEqual([THREAD, undefined]);
    expect(chat.threadId).toBe(OTHER_THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['hello?', 'New here.']);
    expect(chat.state.notice).toMatchObject({ kind: 'thread-gone' });
    expect(events.thread.at(-1)).toMatchObject({ threadId: OTHER_THREAD, reason: 'created' });
  });

  it('over REST: one answer, the thread from it', async () => {
    const { chat, client } = await conversation({ transport: 'rest' });
    client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('One piece.'));
    await chat.send('q');
    expect(client.turns[0]!.transport).toBe('rest');
    expect(chat.state.messages.at(-1)).toMatchObject({ text: 'One piece.', state: 'done' });
    expect(chat.threadId).toBe(THREAD);
  });

  it('a send made while the conversation loads waits for it, then goes out', async () => {
    const { ChatController } = await import('../../src/state/chat-controller.js');
    const { FakeClient, FakeHost, config } = await import('./support/fakes.js');
    const client = new FakeClient();
    const chat = new ChatController(new FakeHost() as never, { code, createClient: () => client as never });
    chat.configure(config());
    const sent = chat.send('early');
    await sent;
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['early', 'Hello.']);
  });

  it('a send made while a load fails keeps its text in the composer', async () => {
    const { ChatController } = await import('../../src/state/chat-controller.js');
    const { FakeClient, FakeHost, config } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.loadError = apiError({ kind: 'network' });
    const chat = new ChatController(new FakeHost() as never, { code, createClient: () => client as never });
    chat.configure(config());
    await chat.send('do not lose me');
    expect(chat.state.draft).toBe('do not lose me');
    expect(client.turns).toEqual([]);
  });
});

describe('moving between threads', () => {
  it('newThread: the log empties, the reset is announced, the next question creates a thread', async () => {
    const { chat, events } = await conversation();
    await chat.send('first');
    chat.newThread();
    await settled();
    expect(chat.threadId).toBe(null);
    expect(chat.state.messages).toEqual([]);
    expect(events.thread.at(-1)).toEqual({ threadId: null, previousThreadId: THREAD, reason: 'reset' });
  });

  it('switchThread: the other thread loads with its own draft', async () => {
    const { FakeClient } = await import('./support/fakes.js');
    const client = new FakeClient();
    client.transcripts.set(OTHER_THREAD, [question('older'), reply('older reply')]);
    const { chat } = await conversation({}, client);
    chat.switchThread(OTHER_THREAD, 'switched');
    await settled();
    expect(chat.state.messages.map((m) => m.text)).toEqual(['older', 'older reply']);
  });

  it('dismissNotice clears the notice and an error status', async () => {
    const { chat, client } = await conversation();
    client.script = async () => {
      throw apiError({ kind: 'network' });
    };
    await chat.send('q');
    chat.dismissNotice();
    expect(chat.state).toMatchObject({ notice: null, status: 'idle' });
  });
});

describe('reruns', () => {
  it('regenerate: a new branch thread, the reply replaced, the relation kept', async () => {
    const { chat, client, events } = await conversation();
    await chat.send('q');
    const turns = await chat.useTurns();
    await turns.rerun(0, chat.state.messages[1]!.id!, 'q');
    expect(client.reruns[0]).toMatchObject({ threadId: THREAD, body: { interaction_id: REPLY_ID, text: 'q' } });
    expect(chat.threadId).toBe(OTHER_THREAD);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['q', 'Again.']);
    expect(events.thread.at(-1)).toEqual({ threadId: OTHER_THREAD, previousThreadId: THREAD, reason: 'rerun' });
    expect(chat.branches).toEqual([{ from: THREAD, turn: 0, to: OTHER_THREAD }]);
  });

  it('an edit that fails: the log as it was, the edited text in the composer', async () => {
    const { chat, client } = await conversation();
    await chat.send('q');
    const before = chat.state.messages;
    client.rerunScript = async () => {
      throw apiError({ kind: 'http', status: 500 });
    };
    await (await chat.useTurns()).rerun(0, before[1]!.id!, 'q, edited');
    expect(chat.state.messages).toBe(before);
    expect(chat.state.draft).toBe('q, edited');
    expect(chat.state.notice).toMatchObject({ kind: 'server' });
  });

  it('a rerun the reader stops: the log as it was, no notice', async () => {
    const { chat, client } = await conversation();
    await chat.send('q');
    const before = chat.state.messages;
    client.rerunScript = (_, __, signal) =>
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(apiError({ kind: 'network' }))));
    const rerun = (await chat.useTurns()).rerun(0, before[1]!.id!, 'q');
    await settled();
    expect(chat.state.status).toBe('connecting');
    chat.stop();
    await rerun;
    expect(chat.state).toMatchObject({ messages: before, notice: null, status: 'idle', turn: null });
  });

  it('a stopped turn the service never recorded is asked again instead', async () => {
    vi.useFakeTimers();
    const { chat, client } = await conversation();
    client.script = async (_, handlers) => {
      handlers.onThread?.(THREAD);
      throw apiError({ kind: 'stream' });
    };
    client.transcripts.set(THREAD, []);
    await chat.send('lost?');
    client.script = async (_, handlers) => (handlers.onThread?.(THREAD), reply('Here it is.'));
    const rerun = (await chat.useTurns()).rerun(0, null, 'lost?');
    for (let i = 0; i < 40; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await rerun;
    await settled();
    expect(client.reruns).toEqual([]);
    expect(client.turns.map((t) => t.body.text)).toEqual(['lost?', 'lost?']);
    expect(chat.state.messages.map((m) => m.text)).toEqual(['lost?', 'Here it is.']);
  });
});

describe('a question sent while a stored thread loads', () => {
  /**
   * A conversation opening THREAD whose transcript waits for `release()`; a read that the
   * load gives up rejects, as fetch does when its signal aborts.
   */
  async function loading() {
    const { ChatController } = await import('../../src/state/chat-controller.js');
    const { FakeClient, FakeHost, config } = await import('./support/fakes.js');
    const client = new FakeClient();
    // Ids of their own: the turn's reply (REPLY_ID) settles over a message of its id.
    client.transcripts.set(THREAD, [question('Where is it?', '1'.repeat(24)), reply('On its way.', { id: '2'.repeat(24) })]);
    client.transcripts.set(OTHER_THREAD, [question('older'), reply('older reply')]);
    const read = client.transcript.bind(client);
    const waiting: Array<() => void> = [];
    client.transcript = (threadId: string, opts?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        waiting.push(() => resolve(read(threadId)));
        opts?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const host = new FakeHost();
    const chat = new ChatController(host as never, { code, createClient: () => client as never });
    const sends = host.events<{ text: string }>('agent-chat-send');
    chat.configure(config({ threadId: THREAD }));
    chat.activate();
    await settled();
    const release = async () => {
      for (const go of waiting.splice(0)) go();
      await settled();
    };
    return { chat, client, sends, config, release };
  }

  const texts = (chat: { state: { messages: ReadonlyArray<{ text: string }> } }) => chat.state.messages.map((m) => m.text);

  it('a load is not a reply under way (the composer offers Send, and its Enter sends); a turn, or one being recovered, is', async () => {
    const { chat, client, release } = await loading();
    expect([chat.busy, chat.replying]).toEqual([true, false]);
    await release();
    expect([chat.busy, chat.replying]).toEqual([false, false]);
    const finish = client.hold('done');
    const turn = chat.send('one');
    await settled();
    expect(chat.replying).toBe(true);
    finish();
    await turn;
    expect(chat.replying).toBe(false);
    // A turn a page before left running: `connecting` until recovery has decided about it.
    const { restore } = await import('../../src/state/store.js');
    chat.store.apply(restore, '', chat.state.messages, [], true);
    expect(chat.replying).toBe(true);
    chat.hostDisconnected();
  });

  it('goes out into that thread once it has loaded, once however often it was sent meanwhile (Enter pressed again)', async () => {
    const { chat, client, sends, release } = await loading();
    chat.setDraft('early');
    const sent = [chat.send('early'), chat.send('early'), chat.send(' early ')];
    await settled();
    expect(texts(chat)).toEqual([]);
    expect(chat.state.draft, 'the text stays in the field while it waits').toBe('early');
    await release();
    await Promise.all(sent);
    expect(texts(chat)).toEqual(['Where is it?', 'On its way.', 'early', 'Hello.']);
    expect(sends.map((s) => s.text)).toEqual(['early']);
    expect(client.turns.map((t) => [t.body.text, t.body.thread_id])).toEqual([['early', THREAD]]);
    expect(chat.state.draft).toBe('');
    chat.hostDisconnected();
  });

  it('waits for a load of the same thread that replaced the first (new credentials)', async () => {
    const { chat, client, config, release } = await loading();
    const sent = chat.send('early');
    await settled();
    chat.configure(config({ threadId: THREAD, accessToken: 'a-new-token' }));
    await release();
    await sent;
    expect(texts(chat)).toEqual(['Where is it?', 'On its way.', 'early', 'Hello.']);
    expect(client.turns).toHaveLength(1);
    chat.hostDisconnected();
  });

  it('is not sent into another thread the reader moved to meanwhile: it stays in the field there', async () => {
    const { chat, client, release } = await loading();
    const sent = chat.send('early');
    await settled();
    chat.switchThread(OTHER_THREAD, 'switched');
    await release();
    await sent;
    expect(texts(chat)).toEqual(['older', 'older reply']);
    expect(client.turns).toEqual([]);
    expect(chat.state.draft).toBe('early');
    chat.hostDisconnected();
  });
});
