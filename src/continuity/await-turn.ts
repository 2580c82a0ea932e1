import type { AgentClient } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import { sleep } from '../client/http.js';
import type { Message, SendMessageBody } from '../client/types.js';
import type { RunningTurn } from './running-turn.js';

/**
 * What finds a turn in a transcript: its question, the message newest when it began, how
 * often the question had been asked before it, and the reply as far as it was shown.
 */
export type TurnMarker = Pick<RunningTurn, 'after' | 'prior'> &
  Partial<Pick<RunningTurn, 'text'>> & { body: Pick<SendMessageBody, 'text'> };

/** What the transcript said in the end: the turn with its reply, the thread gone, or not (yet) there. */
export type AwaitedTurn = { state: 'done'; transcript: Message[] } | { state: 'gone' } | { state: 'missing'; transcript: Message[] | null };

/**
 * Polls for this long at most: as long as a streamed turn may run (the stream's keepalive
 * limit), since a service may add the question to the transcript only when the turn ends.
 */
const LIMIT_MS = 300_000;
const FIRST_WAIT_MS = 1_000;
const MAX_WAIT_MS = 4_000;

/**
 * A turn the service can no longer stream (it lost the turn's buffer, or it never streamed:
 * REST) is looked for in the thread's transcript, briefly and with growing pauses, until
 * its reply is there. A failed request is tried again at the next poll; an abort ends it.
 */
export async function awaitTurn(
  client: AgentClient,
  threadId: string,
  turn: TurnMarker,
  signal: AbortSignal,
  limitMs = LIMIT_MS,
): Promise<AwaitedTurn> {
  const deadline = performance.now() + limitMs;
  let transcript: Message[] | null = null;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    try {
      transcript = await client.transcript(threadId, { signal });
      if (findTurn(transcript, turn).state === 'done') return { state: 'done', transcript };
    } catch (error) {
      if (signal.aborted) throw error;
      if (isApiError(error) && error.status === 404) return { state: 'gone' };
    }
    if (performance.now() + wait > deadline) return { state: 'missing', transcript };
    await sleep(wait, signal);
  }
}

/** Enough of a reply's start to tell it from another, spacing aside. */
const opening = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 64);

/**
 * Where a turn stands in a transcript: `done` (its question and a reply after it), `started`
 * (its question only: a service that records the question at once), `absent`; `index` is
 * its question's, `end` the last message of its reply. A transcript carries no seq and,
 * until the turn ends, no id of it: the turn is told by where its question stands (after the
 * message it began after; else, that message gone, the `prior + 1`-th time the question was
 * asked) and by its reply, which starts the way the reply shown so far did. Another client's
 * same question with another answer is not this turn.
 */
export function findTurn(
  transcript: readonly Message[],
  turn: TurnMarker,
): { state: 'done' | 'started' | 'absent'; index: number; end: number } {
  const asked: number[] = [];
  transcript.forEach((m, i) => m.sender?.type === 'user' && m.text === turn.body.text && asked.push(i));
  const marker = turn.after === null ? -1 : transcript.findIndex((m) => m.id === turn.after);
  const candidates =
    turn.after === null || marker >= 0
      ? asked.filter((i) => i > marker)
      : // The marker fell out of the transcript (ids re-issued, a long thread trimmed).
        turn.prior === undefined
        ? asked.slice(-1)
        : asked.slice(turn.prior, turn.prior + 1);
  const shown = opening(turn.text ?? '');
  for (const index of candidates) {
    let end = index;
    while (end + 1 < transcript.length && transcript[end + 1]!.sender?.type !== 'user') end++;
    if (end === index) return { state: 'started', index, end };
    if (transcript.slice(index + 1, end + 1).some((r) => opening(r.text).startsWith(shown))) return { state: 'done', index, end };
  }
  return { state: 'absent', index: -1, end: -1 };
}
