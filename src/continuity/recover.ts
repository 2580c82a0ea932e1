import type { AgentClient } from '../client/client.js';
import { ApiError } from '../client/errors.js';
import type { Message } from '../client/types.js';
import { emit } from '../events.js';
import { type ChatMessage, emptyReply, fromTranscript, userMessage } from '../state/messages.js';
import type { TurnHost } from '../state/scene.js';
import { endTurn, transition, without } from '../state/store.js';
import { awaitTurn, findTurn } from './await-turn.js';
import type { RunningTurn } from './running-turn.js';

// --- what recovery does to the conversation (src/state/store.ts says what a transition is) ---

/**
 * A turn an earlier page (or a tab that went) started goes on here: the log up to it
 * (`before`, else what shows without these two), its question and the reply so far.
 */
export const resume = transition('resume', (s, user: ChatMessage, reply: ChatMessage, before?: readonly ChatMessage[]) => ({
  messages: [...(before ?? without(s.messages, [user.key, reply.key])), user, reply],
  starters: [],
  status: 'connecting',
  turn: { user: user.key, reply: reply.key, mirrored: false },
}));

/** The turn ended and the thread's transcript shows how (its reply was awaited there, or the thread is gone). */
export const showTranscript = transition('showTranscript', (_, messages: readonly ChatMessage[]) => ({
  messages,
  status: 'idle',
  turn: null,
}));

/** What recovery asks of the conversation's turns (src/state/turns.ts). */
export interface Turns {
  resume(record: RunningTurn, show: () => [ChatMessage, ChatMessage]): Promise<void>;
  unlessAnotherTabRuns(then: () => void): void;
}

/**
 * A turn a page before this one (a reload, another page of the site) started and did not
 * see end: docs/protocol.md "A turn survives the page". Its message and the reply so far
 * show, and the stream resumes where it was: the service knows the turn by its thread and
 * the last seq shown, and replays the rest (all of it, if the turn ended meanwhile). What
 * the transcript seems to have of it is only hidden, never taken as its end: a transcript
 * that changed meanwhile (ids re-issued, another client asking the same) must not make a
 * running turn vanish. A turn the service can no longer stream is awaited in the
 * transcript. A turn another tab is talking to the service for is mirrored from that tab.
 */
export function recover(turns: Turns, chat: TurnHost, turn: RunningTurn, transcript: Message[]): void {
  const threadId = turn.threadId ?? turn.body.thread_id ?? null;
  const found = findTurn(transcript, turn);
  // A turn that never named its thread here is found by its key (docs/protocol.md "A send and a reload").
  if (threadId !== chat.threads.id || !(threadId || turn.key)) {
    // Unless another tab is running it right now (a new conversation before its thread is
    // named): then it is mirrored from there.
    return turns.unlessAnotherTabRuns(() => {
      chat.threads.saved?.set('turn', null);
      // Started in a new conversation and lost before the service named it: the text comes back.
      if (!threadId && found.state === 'absent') chat.setDraft(chat.draftWith(turn.body.text));
      chat.store.apply(endTurn);
    });
  }
  void turns.resume({ ...turn, threadId }, () => {
    const { text, image_url: imageUrl } = turn.body;
    const user = userMessage(text, imageUrl);
    const reply = emptyReply(turn.text);
    // What the transcript has of the turn (its question recorded at once, or the whole turn
    // if it ended meanwhile) shows once: as the resumed turn, at the end.
    const before = found.index < 0 ? undefined : fromTranscript([...transcript.slice(0, found.index), ...transcript.slice(found.end + 1)]);
    chat.store.apply(resume, user, reply, before);
    return [user, reply];
  });
}

/** A resumed turn the service cannot stream: shown from the transcript once its reply is there. */
export async function awaitReply(chat: TurnHost, client: AgentClient, record: RunningTurn, signal: AbortSignal): Promise<void> {
  const outcome = await awaitTurn(client, record.threadId!, record, signal);
  if (outcome.state === 'gone') {
    // Nothing of that conversation is left to show; what the reader asked goes back to the composer.
    chat.store.apply(showTranscript, []);
    chat.setDraft(chat.draftWith(record.body.text));
    return chat.threadGone();
  }
  if (outcome.state === 'missing') {
    // The question is not even in the transcript: it never reached the service (the page
    // went as it was sent). As a turn the service did not take: the text goes back.
    const lost = !!outcome.transcript && findTurn(outcome.transcript, record).state === 'absent';
    throw new ApiError({
      kind: 'stream',
      // NOT_RECEIVED (running-turn.ts): spelt here, for a value import would split that module off the turns' chunk.
      code: lost ? 'turn.not_received' : undefined,
      message: 'The reply could not be recovered after the page changed.',
    });
  }
  chat.store.apply(showTranscript, fromTranscript(outcome.transcript));
  chat.threads.touch(chat.state.messages);
  const final = outcome.transcript.findLast((m) => m.sender?.type !== 'user');
  if (final) emit(chat.host, 'agent-chat-message', { message: final, threadId: chat.threads.id });
}

/** How long a rerun of a stopped turn waits for the service to record it before asking again. */
const UNFINISHED_WAIT_MS = 30_000;

/**
 * For a rerun of a stopped or interrupted turn (src/state/turns.ts), which is looked for
 * the way a recovered one is: the id of the reply the service recorded for the question at
 * `index`, waiting a little while the service finishes it; null if it never shows.
 */
export async function recordedReply(
  client: AgentClient,
  threadId: string,
  messages: readonly ChatMessage[],
  index: number,
  signal: AbortSignal,
): Promise<string | null> {
  const after = messages.slice(0, index).findLast((m) => m.id)?.id ?? null;
  const marker = { after, body: { text: messages[index]!.text } };
  const found = await awaitTurn(client, threadId, marker, signal, UNFINISHED_WAIT_MS);
  if (found.state !== 'done') return null;
  const at = findTurn(found.transcript, marker).index;
  return found.transcript.slice(at + 1).find((m) => m.sender?.type !== 'user')?.id ?? null;
}
