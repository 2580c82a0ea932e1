import type { ChatMessage } from './messages.js';
import type { Notice } from './notice.js';
import type { ChatStatus } from './types.js';

/**
 * The conversation as the reader sees it, owned by one store (docs/architecture.md "One
 * owner of the conversation"): the messages, the status, the notice, the turn under way,
 * the welcome message, the starter suggestions and the draft.
 *
 * Every change is a named transition: a pure function from the state (and its arguments)
 * to what changes, applied by `store.apply()`, which replaces the state and tells the
 * subscribers once. Messages are never changed in place: a transition replaces the ones it
 * changes. The controller (src/state/chat-controller.ts), the turns, the mirror of another
 * tab and recovery apply transitions; nothing else writes the state; the element renders
 * from the notifications, and `render()` only reads.
 *
 * The transitions the panel applies are below; those of a running turn (tokens, the final
 * reply, another tab's turn…) come with the turns' chunk (src/state/turn-transitions.ts).
 * All are plain TypeScript without a DOM, tested in Node (test/unit/store.test.ts).
 */
export interface ConversationState {
  readonly status: ChatStatus;
  readonly messages: readonly ChatMessage[];
  readonly notice: Notice | null;
  /** The turn under way (sent here, or another tab's shown here); null when none runs. */
  readonly turn: RunningTurnView | null;
  readonly welcome: string;
  /** Starter suggestions, shown before the first message. */
  readonly starters: readonly string[];
  /** Welcome and transcript (or starters) are loaded for the current configuration. */
  readonly ready: boolean;
  /** The composer's text; kept here so that no failure can lose it. */
  readonly draft: string;
  /** A question that has not reached the service (offline, or refused): Retry sends it. */
  readonly unsent: ChatMessage | null;
}

/** Which messages a running turn writes (their keys; null before they show). */
export interface RunningTurnView {
  readonly user: string | null;
  readonly reply: string | null;
  /** Another tab talks to the service for it; this one shows it (src/continuity/mirror.ts). */
  readonly mirrored: boolean;
}

/** Every transition's name: what a subscriber is told happened (those of this file and turn-transitions.ts). */
export type Change =
  | 'loading'
  | 'restore'
  | 'clear'
  | 'disconnected'
  | 'draft'
  | 'appendUser'
  | 'queue'
  | 'startTurn'
  | 'withdraw'
  | 'endTurn'
  | 'fail'
  | 'inform'
  | 'dismiss'
  | 'startReply'
  | 'appendDelta'
  | 'replaceText'
  | 'reconnecting'
  | 'settle'
  | 'stop'
  | 'interrupt'
  | 'resume'
  | 'takeOver'
  | 'showTranscript'
  | 'replaceMessages'
  | 'watchTurn'
  | 'mirror'
  | 'reattach'
  | 'branch'
  | 'undo';

/** A named change of the conversation: what it is called, and what it makes of the state. */
export interface Transition<A extends unknown[] = []> {
  readonly name: Change;
  next(state: ConversationState, ...args: A): Partial<ConversationState>;
}

export type Listener = (state: ConversationState, change: Change) => void;

export const transition = <A extends unknown[]>(name: Change, next: Transition<A>['next']): Transition<A> => ({ name, next });

export const INITIAL: ConversationState = {
  status: 'idle',
  messages: [],
  notice: null,
  turn: null,
  welcome: '',
  starters: [],
  ready: false,
  draft: '',
  unsent: null,
};

export class ConversationStore {
  private __current: ConversationState = INITIAL;
  private readonly __listeners = new Set<Listener>();

  get state(): ConversationState {
    return this.__current;
  }

  /** Calls `listener` after every transition, with its name; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.__listeners.add(listener);
    return () => this.__listeners.delete(listener);
  }

  /** Applies one transition and tells every subscriber once. */
  apply<A extends unknown[]>(change: Transition<A>, ...args: A): void {
    this.__current = { ...this.__current, ...change.next(this.__current, ...args) };
    for (const listener of this.__listeners) listener(this.__current, change.name);
  }

  /** The message with `key` in the log, if it is there. */
  find(key: string | null | undefined): ChatMessage | undefined {
    return key ? this.__current.messages.find((m) => m.key === key) : undefined;
  }
}

/** `messages` without those whose keys are listed. */
export const without = (messages: readonly ChatMessage[], keys: ReadonlyArray<string | null | undefined>) =>
  messages.filter((m) => !keys.includes(m.key));

/** `messages` with the one of `key` changed by `patch` (a new object; the others kept). */
export const patched = (messages: readonly ChatMessage[], key: string | null | undefined, patch: Partial<ChatMessage>) =>
  messages.map((m) => (m.key === key ? { ...m, ...patch } : m));

// --- what the panel does to the conversation --------------------------------------------

/**
 * A load of the conversation starts: nothing shown is final until it ends. An old notice goes,
 * except the one saying this tab's question lost the race to another tab's: the question is
 * back in the composer, and a load of the thread the other tab's turn ran on must not hide why.
 */
export const loading = transition('loading', (s) => ({
  ready: false,
  notice: s.notice?.kind === 'other-tab' ? s.notice : null,
  status: 'connecting',
}));

/**
 * The conversation as the service has it: welcome, transcript (or nothing, for a new
 * one), starters. A turn still running when the page went stays `connecting` until
 * recovery decides how it goes on.
 */
export const restore = transition(
  'restore',
  (_, welcome: string, messages: readonly ChatMessage[], starters: readonly string[], running: boolean) => ({
    welcome,
    messages,
    starters,
    ready: true,
    status: running ? 'connecting' : 'idle',
  }),
);

/** The thread in use changed: nothing of the old one shows (nor its notice); its own draft does. */
export const clear = transition('clear', (_, draft: string) => ({ messages: [], draft, notice: null, unsent: null }));

/** The element left the page: whatever ran has stopped, and a return loads afresh. */
export const disconnected = transition('disconnected', () => ({ status: 'idle', ready: false, turn: null }));

/** The composer's text changed (typed, dictated, given back, another tab's). */
export const editDraft = transition('draft', (_, draft: string) => ({ draft }));

/** The reader's question joins the log. */
export const appendUser = transition('appendUser', (s, user: ChatMessage) => ({ messages: [...s.messages, user] }));

/** Offline: the question stays in the log, marked queued; it goes out when the browser is back. */
export const queue = transition('queue', (s, user: ChatMessage, notice: Notice) => ({
  messages: patched(s.messages, user.key, { state: 'queued' }),
  unsent: { ...user, state: 'queued' },
  notice,
  status: 'error',
}));

/** A turn starts for the question `user` (in the log already): the notice and starters go. */
export const startTurn = transition('startTurn', (s, user: string) => ({
  messages: patched(s.messages, user, { state: 'done' }),
  notice: null,
  starters: [],
  unsent: null,
  status: 'connecting',
  turn: { user, reply: null, mirrored: false },
}));

/**
 * The service did not take the turn, or may not have: its messages leave the log, the
 * question's text goes back to the composer (`draft`) and Retry can send it again.
 */
export const withdraw = transition('withdraw', (s, user: ChatMessage, reply: string | null, draft: string, notice: Notice) => ({
  messages: without(s.messages, [user.key, reply]),
  unsent: user,
  draft,
  notice,
  status: 'error',
  turn: null,
}));

/** The turn ended with nothing of its own to show (another tab has it, or nothing is left to resume). */
export const endTurn = transition('endTurn', () => ({ status: 'idle', turn: null }));

/** Something failed: the notice says what, and what Retry does. */
export const fail = transition('fail', (_, notice: Notice) => ({ notice, status: 'error' }));

/** A notice that is not a failure of the widget's (the stored thread is gone). */
export const inform = transition('inform', (_, notice: Notice) => ({ notice }));

export const dismissNotice = transition('dismiss', (s) => ({ notice: null, status: s.status === 'error' ? 'idle' : s.status }));
