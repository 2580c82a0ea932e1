import type { Message, SendMessageBody } from '../client/types.js';
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
  /** Epoch ms; a turn older than `RUNNING_TURN_LIMIT_MS` is not resumed (the service has long moved on). */
  startedAt: number;
}

/** How long a stored turn is worth resuming; after this the transcript alone tells what happened. */
export const RUNNING_TURN_LIMIT_MS = 15 * 60_000;
/** A reply's text kept for a reload; a longer one is resumed from its start instead. */
const MAX_TEXT = 200_000;

/** A stored running turn, checked: storage is written by other tabs and other versions of this code. */
export function readRunningTurn(value: unknown, now = Date.now()): RunningTurn | null {
  if (!isObject(value) || !isObject(value.body)) return null;
  const { body, threadId, lastSeq, text, after, startedAt } = value;
  const bodyOk =
    typeof body.text === 'string' &&
    typeof body.user_id === 'string' &&
    (body.thread_id === undefined || isHexId(body.thread_id)) &&
    (body.image_url === undefined || typeof body.image_url === 'string') &&
    (body.agent_variables === undefined || isObject(body.agent_variables));
  if (!bodyOk) return null;
  if (threadId !== null && !isHexId(threadId)) return null;
  if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) return null;
  if (typeof text !== 'string' || (after !== null && typeof after !== 'string')) return null;
  if (typeof startedAt !== 'number' || !(now - startedAt < RUNNING_TURN_LIMIT_MS) || startedAt > now + 60_000) return null;
  return { body: body as unknown as SendMessageBody, threadId, lastSeq, text, after, startedAt };
}

/**
 * Where a turn stands in a transcript: `done` (its message and a reply after it),
 * `started` (its message only: a service that records the question at once), `absent`.
 * The turn is the first user message with its text after the message it began after.
 */
export function findTurn(transcript: readonly Message[], turn: RunningTurn): { state: 'done' | 'started' | 'absent'; index: number } {
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

/**
 * Keeps the running turn in storage as it moves: at once when it begins and when the
 * service names its thread, at most every `THROTTLE_MS` while tokens arrive, and at once
 * when the page goes (`pagehide`), so a reload finds it no staler than a moment.
 */
export class TurnJournal {
  private record: RunningTurn | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly write: (turn: RunningTurn | null) => void) {}

  get current(): RunningTurn | null {
    return this.record;
  }

  begin(turn: RunningTurn): void {
    if (!this.record) addEventListener('pagehide', this.flush);
    this.record = { ...turn };
    this.flush();
  }

  thread(threadId: string): void {
    if (!this.record) return;
    this.record.threadId = threadId;
    this.flush();
  }

  progress(seq: number, text: string): void {
    const record = this.record;
    if (!record) return;
    record.lastSeq = seq;
    // A reply too long to keep is resumed from its start: seq 0 and no text, still together.
    if (text.length > MAX_TEXT) record.lastSeq = 0;
    record.text = text.length > MAX_TEXT ? '' : text;
    this.timer ??= setTimeout(this.flush, THROTTLE_MS);
  }

  /** The turn ended here (finished, stopped, failed): nothing is left to resume. */
  end(): void {
    // Released already (the element left): what is stored stays for the next page.
    if (!this.record) return;
    this.stop();
    this.write(null);
  }

  /** This page lets go of the turn without ending it (the element left the page): keep it as it is. */
  release(): void {
    if (!this.record) return;
    this.flush();
    this.stop();
  }

  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.record) this.write({ ...this.record });
  };

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.record = null;
    removeEventListener('pagehide', this.flush);
  }
}

const THROTTLE_MS = 250;
