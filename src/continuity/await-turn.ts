import type { AgentClient } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import { sleep } from '../client/http.js';
import type { Message, SendMessageBody } from '../client/types.js';
import type { RunningTurn } from './running-turn.js';

/** What finds a turn in a transcript: its question, and the message newest when it began. */
export type TurnMarker = Pick<RunningTurn, 'after'> & { body: Pick<SendMessageBody, 'text'> };

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

/**
 * Where a turn stands in a transcript: `done` (its message and a reply after it),
 * `started` (its message only: a service that records the question at once), `absent`.
 * The turn is the first user message with its text after the message it began after.
 */
export function findTurn(transcript: readonly Message[], turn: TurnMarker): { state: 'done' | 'started' | 'absent'; index: number } {
  const from = turn.after === null ? 0 : transcript.findIndex((m) => m.id === turn.after) + 1;
  // The marker fell out of the transcript (a long thread trimmed): search all of it.
  const start = turn.after !== null && from === 0 ? 0 : from;
  for (let i = start; i < transcript.length; i++) {
    const m = transcript[i]!;
    if (m.sender?.type !== 'user' || m.text !== turn.body.text) continue;
    const replied = transcript.slice(i + 1).some((r) => r.sender?.type !== 'user');
    return { state: replied ? 'done' : 'started', index: i };
  }
  return { state: 'absent', index: -1 };
}
