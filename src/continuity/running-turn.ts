import type { SendMessageBody } from '../client/types.js';
import { isHexId, isObject } from '../client/types.js';

/**
 * A streamed turn this browser started and has not seen end, kept with the thread state
 * (per `persist`) so that a reload, a navigation to another page of the site or another tab
 * can pick it up where the stream was: docs/protocol.md "A turn survives the page".
 */
export interface RunningTurn {
  /** The request as sent: resuming sends it again with `Last-Event-ID` (the service matches its text). */
  body: SendMessageBody;
  /** Named by the service's `thread` frame; null until it arrived. */
  threadId: string | null;
  /** The last `seq` delivered, and the reply's text up to it: written together, never apart. */
  lastSeq: number;
  text: string;
  /** The id of the thread's newest message when the turn began: where to look for the turn in a transcript. */
  after: string | null;
  /**
   * How many times the thread had been asked this very question when the turn began: which
   * of them is this turn, when a transcript no longer has `after` (ids re-issued, a long
   * thread trimmed). Absent in records of earlier versions.
   */
  prior?: number;
  /** Epoch ms; a turn older than `RUNNING_TURN_LIMIT_MS` is not resumed (the service has long moved on). */
  startedAt: number;
  /**
   * Every request of the turn carries it (`Idempotency-Key`): a page that comes back before
   * the `thread` frame finds the turn by it, or learns that it never arrived (docs/protocol.md
   * "A send and a reload"). Absent in records of earlier versions.
   */
  key?: string;
}

/**
 * The code with which the service says a turn's message never reached it, nor will (a resume
 * for an unknown key, docs/protocol.md "A send and a reload"); recovery says the same of a
 * question the transcript never shows.
 */
export const NOT_RECEIVED = 'turn.not_received';

/** A turn's key: 128 random bits as hex (`randomUUID` is missing outside secure contexts). */
export const newKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * A reply's text kept for a reload (the journal, journal.ts): at `max-reply-length`'s
 * default a reply is kept whole; a longer one is resumed from its start instead. A stored
 * text longer than this is not one this code wrote.
 */
export const MAX_TEXT = 200_000;

/** How long a stored turn is worth resuming; after this the transcript alone tells what happened. */
export const RUNNING_TURN_LIMIT_MS = 15 * 60_000;

/**
 * A stored running turn, checked: storage is written by other tabs and other versions of
 * this code. Part of the turns' chunk: the panel only sees whether one is stored.
 */
export function readRunningTurn(value: unknown, now = Date.now()): RunningTurn | null {
  if (!isObject(value) || !isObject(value.body)) return null;
  const { body, threadId, lastSeq, text, after, startedAt, prior, key } = value;
  const bodyOk =
    typeof body.text === 'string' &&
    typeof body.user_id === 'string' &&
    (body.thread_id === undefined || isHexId(body.thread_id)) &&
    (body.image_url === undefined || typeof body.image_url === 'string') &&
    (body.agent_variables === undefined || isObject(body.agent_variables));
  if (!bodyOk) return null;
  if (threadId !== null && !isHexId(threadId)) return null;
  if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) return null;
  if (typeof text !== 'string' || text.length > MAX_TEXT || (after !== null && typeof after !== 'string')) return null;
  if (typeof startedAt !== 'number' || !(now - startedAt < RUNNING_TURN_LIMIT_MS) || startedAt > now + 60_000) return null;
  if (prior !== undefined && !(Number.isSafeInteger(prior) && (prior as number) >= 0)) return null;
  if (key !== undefined && !(typeof key === 'string' && /^\w{16,64}$/.test(key))) return null;
  return {
    body: body as unknown as SendMessageBody,
    threadId,
    lastSeq,
    text,
    after,
    startedAt,
    ...(prior === undefined ? {} : { prior: prior as number }),
    ...(key === undefined ? {} : { key }),
  };
}
