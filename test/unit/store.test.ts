import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/client/types.js';
import { resume, showTranscript } from '../../src/continuity/recover.js';
import { emptyReply, userMessage, type ChatMessage } from '../../src/state/messages.js';
import type { Notice } from '../../src/state/notice.js';
import {
  INITIAL,
  ConversationStore,
  appendUser,
  clear,
  disconnected,
  dismissNotice,
  editDraft,
  endTurn,
  fail,
  inform,
  loading,
  queue,
  restore,
  startTurn,
  withdraw,
  type ConversationState,
  type Transition,
} from '../../src/state/store.js';
import {
  appendDelta,
  branch,
  interrupt,
  mirror,
  reattach,
  reconnecting,
  replaceMessages,
  replaceText,
  settle,
  startReply,
  stop,
  takeOver,
  undo,
  watchTurn,
} from '../../src/state/turn-transitions.js';

const notice = (kind: Notice['kind'] = 'network'): Notice => ({ kind, details: [], retry: 'send' });
const agent = (key: string, text: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  key,
  role: 'agent',
  text,
  cards: [],
  suggestions: [],
  state: 'done',
  ...over,
});
const user = (key: string, text: string, over: Partial<ChatMessage> = {}): ChatMessage => ({ ...agent(key, text), role: 'user', ...over });
const state = (over: Partial<ConversationState> = {}): ConversationState => ({ ...INITIAL, ...over });
const after = <A extends unknown[]>(s: ConversationState, t: Transition<A>, ...args: A): ConversationState => ({
  ...s,
  ...t.next(s, ...args),
});
const wire = (over: Partial<Message> = {}): Message => ({
  id: 'a'.repeat(24),
  text: 'Final.',
  sender: { type: 'agent' },
  cards: [],
  ...over,
});

describe('the conversation store', () => {
  it('starts empty and idle', () => {
    const store = new ConversationStore();
    expect(store.state).toEqual({ ...INITIAL });
    expect(store.state.status).toBe('idle');
  });

  it('tells every subscriber once per transition, with its name and the new state', () => {
    const store = new ConversationStore();
    const one = vi.fn();
    const two = vi.fn();
    store.subscribe(one);
    store.subscribe(two);
    store.apply(loading);
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).toHaveBeenCalledTimes(1);
    expect(one.mock.calls[0]![1]).toBe('loading');
    expect(one.mock.calls[0]![0]).toBe(store.state);
  });

  it('stops telling a subscriber that unsubscribed', () => {
    const store = new ConversationStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    unsubscribe();
    store.apply(loading);
    expect(listener).not.toHaveBeenCalled();
  });

  it('replaces the state object on every transition, never changing the old one', () => {
    const store = new ConversationStore();
    const before = store.state;
    store.apply(appendUser, user('u1', 'hi'));
    expect(store.state).not.toBe(before);
    expect(before.messages).toEqual([]);
  });

  it('replaces only the message a transition changes', () => {
    const store = new ConversationStore();
    const first = user('u1', 'hi');
    const reply = agent('a1', '', { state: 'streaming' });
    store.apply(appendUser, first);
    store.apply(startReply, reply);
    store.apply(appendDelta, 'a1', 'Hel');
    expect(store.state.messages[0]).toBe(first);
    expect(store.state.messages[1]).not.toBe(reply);
    expect(reply.text).toBe('');
  });

  it('finds a message by key, and nothing for none', () => {
    const store = new ConversationStore();
    store.apply(appendUser, user('u1', 'hi'));
    expect(store.find('u1')?.text).toBe('hi');
    expect(store.find('nope')).toBeUndefined();
    expect(store.find(null)).toBeUndefined();
  });
});

describe('loading a conversation', () => {
  it('loading: not ready, no notice, connecting', () => {
    const s = after(state({ ready: true, notice: notice(), status: 'error' }), loading);
    expect(s).toMatchObject({ ready: false, notice: null, status: 'connecting' });
  });

  it("loading keeps the notice of a question that lost the race to another tab's: it is back in the composer", () => {
    const lost: Notice = { kind: 'other-tab', details: [], retry: null };
    expect(after(state({ ready: true, notice: lost, status: 'idle' }), loading).notice).toBe(lost);
  });

  it('restore: welcome, transcript and starters, ready and idle', () => {
    const messages = [user('u1', 'hi'), agent('a1', 'hello')];
    const s = after(state({ status: 'connecting' }), restore, 'Welcome!', messages, ['Track an order'], false);
    expect(s).toMatchObject({ welcome: 'Welcome!', messages, starters: ['Track an order'], ready: true, status: 'idle' });
  });

  it('restore with a turn still running stays connecting (recovery decides)', () => {
    expect(after(state(), restore, '', [], [], true).status).toBe('connecting');
  });

  it('restore keeps the turn another tab runs', () => {
    const turn = { user: 'u', reply: 'a', mirrored: true };
    expect(after(state({ turn }), restore, '', [], [], false).turn).toBe(turn);
  });

  it('clear: the thread changed, its own draft shows, nothing of the old one', () => {
    const s = after(state({ messages: [user('u1', 'x')], notice: notice(), unsent: user('u1', 'x'), draft: 'old' }), clear, 'new draft');
    expect(s).toMatchObject({ messages: [], notice: null, unsent: null, draft: 'new draft' });
  });

  it('disconnected: idle, not ready, no turn', () => {
    const s = after(state({ status: 'streaming', ready: true, turn: { user: 'u', reply: 'a', mirrored: false } }), disconnected);
    expect(s).toMatchObject({ status: 'idle', ready: false, turn: null });
  });
});

describe('the draft', () => {
  it('editDraft sets the composer text', () => {
    expect(after(state(), editDraft, 'Where is').draft).toBe('Where is');
  });

  it('survives every failure transition but withdraw, which gives text back', () => {
    const s = state({ draft: 'typing' });
    for (const s2 of [after(s, fail, notice()), after(s, loading), after(s, startTurn, 'u')]) expect(s2.draft).toBe('typing');
    expect(after(s, withdraw, user('u', 'q'), null, 'q\ntyping', notice()).draft).toBe('q\ntyping');
  });
});

describe('a turn', () => {
  it('appendUser adds the question at the end', () => {
    const s = after(state({ messages: [agent('a0', 'x')] }), appendUser, user('u1', 'hi'));
    expect(s.messages.map((m) => m.key)).toEqual(['a0', 'u1']);
  });

  it('startTurn: connecting, the question done, notice, starters and unsent gone', () => {
    const s = after(
      state({ messages: [user('u1', 'hi', { state: 'queued' })], notice: notice(), starters: ['x'], unsent: user('u1', 'hi') }),
      startTurn,
      'u1',
    );
    expect(s).toMatchObject({
      status: 'connecting',
      notice: null,
      starters: [],
      unsent: null,
      turn: { user: 'u1', reply: null, mirrored: false },
    });
    expect(s.messages[0]!.state).toBe('done');
  });

  it('queue: offline, the question stays marked queued and Retry can send it', () => {
    const q = user('u1', 'hi');
    const s = after(state({ messages: [q] }), queue, q, notice('offline'));
    expect(s.messages[0]!.state).toBe('queued');
    expect(s).toMatchObject({ status: 'error', notice: { kind: 'offline' } });
    expect(s.unsent?.key).toBe('u1');
  });

  it('withdraw: question and reply out of the log, its text back, Retry armed', () => {
    const q = user('u1', 'hi');
    const s = after(
      state({
        messages: [agent('a0', 'x'), q, agent('a1', '', { state: 'streaming' })],
        turn: { user: 'u1', reply: 'a1', mirrored: false },
      }),
      withdraw,
      q,
      'a1',
      'hi',
      notice(),
    );
    expect(s.messages.map((m) => m.key)).toEqual(['a0']);
    expect(s).toMatchObject({ unsent: q, draft: 'hi', status: 'error', turn: null });
  });

  it('startReply adds the reply after the question and names it in the turn', () => {
    const s = after(
      state({ messages: [user('u1', 'hi')], turn: { user: 'u1', reply: null, mirrored: false } }),
      startReply,
      agent('a1', '', { state: 'streaming' }),
    );
    expect(s.messages.map((m) => m.key)).toEqual(['u1', 'a1']);
    expect(s.turn).toEqual({ user: 'u1', reply: 'a1', mirrored: false });
  });

  it('appendDelta adds text to the reply and streams', () => {
    let s = state({ messages: [agent('a1', '', { state: 'streaming' })], status: 'connecting' });
    s = after(s, appendDelta, 'a1', 'Hel');
    s = after(s, appendDelta, 'a1', 'lo');
    expect(s.messages[0]!.text).toBe('Hello');
    expect(s.status).toBe('streaming');
  });

  it('appendDelta for a reply that is not shown changes no message', () => {
    const messages = [agent('a1', 'x')];
    expect(after(state({ messages }), appendDelta, 'gone', 'y').messages).toEqual(messages);
  });

  it('replaceText shows what another tab has: streaming with text, connecting without', () => {
    const s = state({ messages: [agent('a1', 'old', { state: 'streaming' })] });
    expect(after(s, replaceText, 'a1', 'newer')).toMatchObject({ status: 'streaming' });
    expect(after(s, replaceText, 'a1', 'newer').messages[0]!.text).toBe('newer');
    expect(after(s, replaceText, 'a1', '').status).toBe('connecting');
  });

  it('reconnecting', () => {
    expect(after(state({ status: 'streaming' }), reconnecting).status).toBe('reconnecting');
  });

  it('settle: the final reply replaces the streamed one under the same key; the question gets its id', () => {
    const s = after(
      state({
        messages: [user('u1', 'hi'), agent('a1', 'Fin', { state: 'streaming' })],
        status: 'streaming',
        turn: { user: 'u1', reply: 'a1', mirrored: false },
      }),
      settle,
      'a1',
      'u1',
      wire({ followup_suggestions: ['More?'] }),
    );
    expect(s.messages[1]).toMatchObject({
      key: 'a1',
      text: 'Final.',
      state: 'done',
      suggestions: ['More?'],
      id: 'a'.repeat(24),
      role: 'agent',
    });
    expect(s.messages[0]!.id).toBe('a'.repeat(24));
    expect(s).toMatchObject({ status: 'idle', turn: null });
  });

  it('settle keeps an id the question already has', () => {
    const s = after(state({ messages: [user('u1', 'hi', { id: 'b'.repeat(24) }), agent('a1', 'x')] }), settle, 'a1', 'u1', wire());
    expect(s.messages[0]!.id).toBe('b'.repeat(24));
  });

  it('settle without a final message keeps what streamed, done', () => {
    const s = after(state({ messages: [agent('a1', 'streamed', { state: 'streaming' })] }), settle, 'a1', null, null);
    expect(s.messages[0]).toMatchObject({ text: 'streamed', state: 'done' });
  });

  it('stop keeps a reply that has text, marked stopped, and drops an empty one', () => {
    const kept = after(state({ messages: [agent('a1', 'part', { state: 'streaming' })] }), stop, 'a1');
    expect(kept.messages[0]!.state).toBe('stopped');
    expect(kept).toMatchObject({ status: 'idle', turn: null });
    expect(after(state({ messages: [agent('a1', '', { state: 'streaming' })] }), stop, 'a1').messages).toEqual([]);
  });

  it('stop before any reply is shown changes no message', () => {
    const messages = [user('u1', 'hi')];
    expect(after(state({ messages }), stop, null).messages).toBe(messages);
  });

  it('interrupt keeps what arrived, marked interrupted, with the notice', () => {
    const s = after(state({ messages: [agent('a1', 'part', { state: 'streaming' })] }), interrupt, 'a1', notice('stream'));
    expect(s.messages[0]!.state).toBe('interrupted');
    expect(s).toMatchObject({ status: 'error', notice: { kind: 'stream' }, turn: null });
    expect(after(state({ messages: [agent('a1', '')] }), interrupt, 'a1', notice()).messages).toEqual([]);
  });

  it('endTurn: idle, no turn, the log as it is', () => {
    const messages = [user('u1', 'x')];
    const s = after(state({ messages, status: 'connecting', turn: { user: null, reply: null, mirrored: true } }), endTurn);
    expect(s).toMatchObject({ status: 'idle', turn: null, messages });
  });

  it('replaceMessages changes the log only', () => {
    const turn = { user: 'u', reply: 'a', mirrored: false };
    const s = after(state({ status: 'connecting', turn }), replaceMessages, [user('u', 'x')]);
    expect(s).toMatchObject({ status: 'connecting', turn });
    expect(s.messages).toHaveLength(1);
  });
});

describe('notices', () => {
  it('fail: an error status and the notice', () => {
    expect(after(state({ status: 'connecting' }), fail, notice())).toMatchObject({ status: 'error', notice: { kind: 'network' } });
  });

  it('inform: a notice without changing the status', () => {
    expect(after(state({ status: 'idle' }), inform, { kind: 'thread-gone', details: [], retry: null })).toMatchObject({
      status: 'idle',
      notice: { kind: 'thread-gone' },
    });
  });

  it('dismissNotice: the notice goes, an error status becomes idle, another stays', () => {
    expect(after(state({ status: 'error', notice: notice() }), dismissNotice)).toMatchObject({ status: 'idle', notice: null });
    expect(after(state({ status: 'streaming', notice: notice() }), dismissNotice).status).toBe('streaming');
  });
});

describe("another tab's turn", () => {
  it('watchTurn marks a mirrored turn before anything of it is known', () => {
    expect(after(state(), watchTurn).turn).toEqual({ user: null, reply: null, mirrored: true });
  });

  it('mirror puts the question and the reply so far at the end, replacing what it names', () => {
    const q = userMessage('hi');
    const r = emptyReply('He');
    const s = after(state({ messages: [agent('a0', 'x'), user('stale', 'hi')], starters: ['s'], notice: notice() }), mirror, q, r, [
      'stale',
    ]);
    expect(s.messages.map((m) => m.key)).toEqual(['a0', q.key, r.key]);
    expect(s).toMatchObject({ starters: [], notice: null, status: 'streaming', turn: { user: q.key, reply: r.key, mirrored: true } });
    expect(after(state(), mirror, q, emptyReply(), []).status).toBe('connecting');
  });

  it('reattach puts the two messages back at the end after the log was reloaded', () => {
    const q = user('u1', 'hi');
    const r = agent('a1', 'part', { state: 'streaming' });
    const s = after(state({ messages: [agent('t1', 'transcript'), q] }), reattach, q, r);
    expect(s.messages.map((m) => m.key)).toEqual(['t1', 'u1', 'a1']);
  });

  it('takeOver: this tab runs the turn it showed', () => {
    const s = after(state({ turn: { user: 'u', reply: 'a', mirrored: true } }), takeOver, 'u', 'a');
    expect(s).toMatchObject({ status: 'connecting', turn: { user: 'u', reply: 'a', mirrored: false } });
  });
});

describe('a turn an earlier page started (recovery)', () => {
  it('resume: the log before it (or what shows), the question and the reply so far', () => {
    const q = user('u1', 'hi');
    const r = agent('a1', 'part', { state: 'streaming' });
    const before = [user('t0', 'older'), agent('t1', 'older reply')];
    expect(after(state({ starters: ['x'] }), resume, q, r, before).messages.map((m) => m.key)).toEqual(['t0', 't1', 'u1', 'a1']);
    const s = after(state({ messages: [agent('t1', 'x'), q], starters: ['x'] }), resume, q, r);
    expect(s.messages.map((m) => m.key)).toEqual(['t1', 'u1', 'a1']);
    expect(s).toMatchObject({ starters: [], status: 'connecting', turn: { user: 'u1', reply: 'a1', mirrored: false } });
  });

  it('showTranscript: the turn ended, the transcript shows how', () => {
    const messages = [user('t0', 'q'), agent('t1', 'a')];
    expect(
      after(state({ status: 'connecting', turn: { user: 'u', reply: 'a', mirrored: false } }), showTranscript, messages),
    ).toMatchObject({
      messages,
      status: 'idle',
      turn: null,
    });
  });
});

describe('reruns', () => {
  it('branch: the log up to the question, then the new question and its reply', () => {
    const log = [user('u0', 'a'), agent('a0', 'b'), user('u1', 'c'), agent('a1', 'd')];
    const q = user('u9', 'c edited');
    const r = agent('a9', '', { state: 'streaming' });
    const s = after(state({ messages: log, notice: notice() }), branch, 2, q, r);
    expect(s.messages.map((m) => m.key)).toEqual(['u0', 'a0', 'u9', 'a9']);
    expect(s).toMatchObject({ notice: null, status: 'connecting', turn: { user: 'u9', reply: 'a9', mirrored: false } });
  });

  it('undo: the log as it was; with a notice an error, without (stopped) idle', () => {
    const log = [user('u0', 'a')];
    expect(after(state({ turn: { user: 'u', reply: 'a', mirrored: false } }), undo, log, null)).toMatchObject({
      messages: log,
      status: 'idle',
      notice: null,
      turn: null,
    });
    expect(after(state(), undo, log, notice()).status).toBe('error');
  });
});
