/**
 * The conversation's transitions while a turn runs (store.ts says what a transition is):
 * the reply joins the log, tokens arrive, the reply settles or is cut off, another tab's
 * turn shows here, a turn is rerun. They come with the turns' chunk, which is what applies
 * them (src/state/turns.ts, src/continuity/mirror.ts); resuming a turn an earlier page
 * started has its own two, in the recovery chunk (src/continuity/recover.ts).
 */
import type { Message } from '../client/types.js';
import { type ChatMessage, fromWire } from './messages.js';
import type { Notice } from './notice.js';
import { type ConversationState, patched, transition, without } from './store.js';

/** The reply of a turn that ended early, in `state`; gone when nothing had arrived. */
function cut(s: ConversationState, reply: string | null, state: 'stopped' | 'interrupted'): readonly ChatMessage[] {
  const message = s.messages.find((m) => m.key === reply);
  if (!message) return s.messages;
  return message.text ? patched(s.messages, reply, { state }) : without(s.messages, [reply]);
}

/** The reply the turn streams into joins the log (empty, streaming). */
export const startReply = transition('startReply', (s, reply: ChatMessage) => ({
  messages: [...s.messages, reply],
  turn: { user: s.turn?.user ?? null, reply: reply.key, mirrored: false },
}));

/** Tokens arrived for `reply`; `cut`: the reply reached `max-reply-length` with them, and ends there. */
export const appendDelta = transition('appendDelta', (s, reply: string, delta: string, cut?: boolean) => ({
  messages: s.messages.map((m) => (m.key === reply ? { ...m, text: m.text + delta, truncated: cut || m.truncated } : m)),
  status: 'streaming',
}));

/** What `reply` shows so far, as another tab (or storage) has it. */
export const replaceText = transition('replaceText', (s, reply: string, text: string) => ({
  messages: patched(s.messages, reply, { text }),
  status: text ? 'streaming' : 'connecting',
}));

/** The connection dropped and is being resumed. */
export const reconnecting = transition('reconnecting', () => ({ status: 'reconnecting' }));

/**
 * The turn's final reply: it replaces what streamed into `reply` (keeping its key, so
 * nothing moves), and the question gets the interaction id (edit needs it). Without a
 * final message (a stream that ended without one), what streamed is the reply. Another
 * copy of the same interaction (a resumed turn the transcript had already) goes.
 */
export const settle = transition('settle', (s, reply: string, user: string | null, final: Message | null) => ({
  messages: s.messages.flatMap((m) => {
    if (final && m.id === final.id && m.key !== reply && m.key !== user) return [];
    if (m.key === reply) return final ? { ...fromWire(final, 0), key: reply, role: 'agent' as const } : { ...m, state: 'done' as const };
    if (m.key === user && final && !m.id) return { ...m, id: final.id };
    return m;
  }),
  status: 'idle',
  turn: null,
}));

/** The reader stopped the turn: the reply keeps what arrived (an empty one goes). */
export const stop = transition('stop', (s, reply: string | null) => ({ messages: cut(s, reply, 'stopped'), status: 'idle', turn: null }));

/** The stream failed after the service took the turn: the reply keeps what arrived. */
export const interrupt = transition('interrupt', (s, reply: string | null, notice: Notice) => ({
  messages: cut(s, reply, 'interrupted'),
  notice,
  status: 'error',
  turn: null,
}));

/** This tab takes over the turn it showed (its owner went): it talks to the service for it now. */
export const takeOver = transition('takeOver', (_, user: string, reply: string) => ({
  status: 'connecting',
  turn: { user, reply, mirrored: false },
}));

/** The log as `messages` while the turn goes on (a rerun asked anew, a turn resent in a new thread). */
export const replaceMessages = transition('replaceMessages', (_, messages: readonly ChatMessage[]) => ({ messages }));

// --- another tab's turn (src/continuity/mirror.ts) ---------------------------------------

/** This tab waits for another tab's turn (nothing of it is known yet). */
export const watchTurn = transition('watchTurn', () => ({ turn: { user: null, reply: null, mirrored: true } }));

/**
 * Another tab's turn shows here: its question and the reply so far, at the end of the log
 * (`replaced` leave it). An old notice goes, except the one saying this tab's question lost
 * to that very turn.
 */
export const mirror = transition('mirror', (s, user: ChatMessage, reply: ChatMessage, replaced: ReadonlyArray<string | undefined>) => ({
  messages: [...without(s.messages, [user.key, reply.key, ...replaced]), user, reply],
  starters: [],
  notice: s.notice?.kind === 'other-tab' ? s.notice : null,
  status: reply.text ? 'streaming' : 'connecting',
  turn: { user: user.key, reply: reply.key, mirrored: true },
}));

/** The log was loaded afresh while another tab's turn shows here: its two messages go back at the end. */
export const reattach = transition('reattach', (s, user: ChatMessage, reply: ChatMessage) => ({
  messages: [...without(s.messages, [user.key, reply.key]), user, reply],
}));

// --- reruns -----------------------------------------------------------------------------

/** A rerun of the question at `index`: the log up to it, then the new question and its reply. */
export const branch = transition('branch', (s, index: number, user: ChatMessage, reply: ChatMessage) => ({
  messages: [...s.messages.slice(0, index), user, reply],
  notice: null,
  status: 'connecting',
  turn: { user: user.key, reply: reply.key, mirrored: false },
}));

/** A rerun that did not go through: the log as it was, and why (no notice: the reader stopped it). */
export const undo = transition('undo', (_, messages: readonly ChatMessage[], notice: Notice | null) => ({
  messages,
  notice,
  status: notice ? 'error' : 'idle',
  turn: null,
}));
