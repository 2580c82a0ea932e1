import type { AgentVariables, ErrorFrame, Message, MessageFrame, TokenFrame } from '@agent-chat/wire';
import { AgentFailure, estimateTokens, type Agent } from '../agents/demo-agent.js';
import { TraceRecorder, facetsOf, type Trace } from '../agents/trace.js';
import type { Deps } from '../deps.js';
import { newHexId } from '../http/ids.js';
import { notFound } from '../http/errors.js';
import type { Admission } from '../store/budgets.js';
import { FRAME_OVERHEAD_BYTES, MAX_REPLY_CHARS, MAX_TURN_FRAMES, sizeOf } from '../store/limits.js';
import type { AgentVersion, KeyRecord, LoggedFrame, ThreadRecord, TurnRecord, TurnResult, TurnStatus } from '../store/records.js';
import { INTERRUPTED, interruptedReply } from './interrupted.js';

/**
 * One agent turn. It runs on its own, not inside the HTTP response that started it: its
 * frames go into a buffer that any number of connections follow, and into its log in the
 * stores. That is what makes resume honest (a reconnect replays the buffer, or the log once
 * the turn has ended, instead of running the agent again) and what lets a fault knob cut a
 * connection while the turn carries on, as a real proxy drop would.
 */

export type TurnFrame = TokenFrame | MessageFrame | ErrorFrame;
export type { TurnResult } from '../store/records.js';

/** What a connection follows and a resume attaches to: a turn running here, or one its log replays. */
export interface FollowableTurn {
  readonly interactionId: string;
  readonly threadId: string;
  readonly userText: string;
  /** Who asked: the `user_id` of the question, and the token session (`jti`) that sent it. */
  readonly userId: string;
  readonly caller: string;
  readonly idempotencyKey: string | null;
  /** How it ended, once it has. */
  readonly result: Promise<TurnResult>;
  /**
   * Whether a client that saw up to `lastSeq` of some turn is resuming this one: its seq is
   * within this turn's frames (or 0: it saw none of any turn). An earlier turn's seq means
   * that turn, not this later one with the same question.
   */
  resumes(lastSeq: number): boolean;
  /** Frames after `after`, then live ones, until the turn ends or `signal` aborts. */
  follow(after: number, signal: AbortSignal): AsyncGenerator<LoggedFrame>;
}

export interface TurnOptions {
  key: KeyRecord;
  thread: ThreadRecord;
  text: string;
  userId: string;
  imageUrl?: string;
  variables?: AgentVariables;
  version: AgentVersion;
  /**
   * Someone watches the frames as they come (a stream, a socket): a paced answer is paced at
   * its agent's `paceMs`. A turn whose frames nobody watches (REST, rerun: one JSON answer)
   * gets no pause at all; each pause is a timer, even at 0: a 200 KB reply cut into words
   * took 40 s to answer.
   */
  streaming: boolean;
  /** Origin of the request, for absolute card image URLs. */
  origin?: string;
  /** The `Idempotency-Key` of the request that started it (idempotency.ts). */
  idempotencyKey?: string;
  /** The id of the request that started it (`x-request-id`): its error frame names it, as an error envelope does. */
  requestId?: string;
  /** Who asked: the token's session (`Caller.session`). */
  caller?: string;
  /** The request named no thread: this turn opened `thread`. */
  openedThread?: boolean;
  /** The key's leave for this turn (`Budgets.admitTurn`), given back when it ends. */
  admitted: Admission;
}

/** Waits `ms`, or less when `signal` aborts (a cancelled turn lets go of its timer). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Counted bytes of a frame in the buffer; a message frame's reply is the transcript's, counted there. */
const frameBytes = (frame: TurnFrame): number =>
  frame.type === 'event'
    ? 2 * (frame.data.text?.length ?? 0) + FRAME_OVERHEAD_BYTES
    : frame.type === 'message'
      ? FRAME_OVERHEAD_BYTES
      : sizeOf(frame);

export class Turn implements FollowableTurn {
  readonly interactionId = newHexId();
  readonly entries: LoggedFrame[] = [];
  /** Set once its end is recorded: followers stop, `result` settles. */
  done = false;
  readonly result: Promise<TurnResult>;
  private settle!: (result: TurnResult) => void;
  private waiters = new Set<() => void>();
  private cancelled: string | null = null;
  /** Set when the server stops before the turn ends (`interrupt`): it ends as interrupted, not cancelled. */
  interrupted = false;
  /** Aborts the agent's work (a model's request) when the turn is cancelled. */
  readonly abort = new AbortController();
  /** What the turn does, step by step (trace.ts); recorded from the start. */
  readonly trace = new TraceRecorder();
  /** Counted bytes of the buffered frames (limits.ts). */
  bytes = 0;
  /** The last seq handed out: the thread's numbering goes on from here. */
  seq: number;

  constructor(
    readonly threadId: string,
    readonly userText: string,
    /** The thread's last seq when the turn began: this turn's frames come after it. */
    readonly startSeq: number,
    readonly idempotencyKey: string | null,
    private readonly log: (frames: LoggedFrame[]) => void = () => {},
    readonly userId = '',
    readonly caller = '',
  ) {
    this.seq = startSeq;
    this.result = new Promise((resolve) => (this.settle = resolve));
  }

  /** The next seq of the thread, for a frame of this turn. */
  nextSeq(): number {
    return ++this.seq;
  }

  push(frame: TurnFrame, key: number): void {
    const entry = { key, frame };
    this.entries.push(entry);
    this.bytes += frameBytes(frame);
    this.log([entry]);
    this.wake();
  }

  finish(result: TurnResult): void {
    if (this.done) return;
    this.done = true;
    this.settle(result);
    this.wake();
  }

  /** A newer turn on the same thread wins; this one stops at its next frame. */
  cancel(reason: string): void {
    if (this.done) return;
    this.cancelled = reason;
    this.abort.abort();
  }

  get cancelReason(): string | null {
    return this.cancelled;
  }

  /** The server is stopping and will not wait for this turn: it ends as interrupted at its next frame. */
  interrupt(): void {
    if (this.done) return;
    this.interrupted = true;
    this.cancel(INTERRUPTED.message);
  }

  resumes(lastSeq: number): boolean {
    return lastSeq === 0 || lastSeq >= this.startSeq;
  }

  async *follow(after: number, signal: AbortSignal): AsyncGenerator<LoggedFrame> {
    let index = 0;
    for (;;) {
      while (index < this.entries.length) {
        const entry = this.entries[index++]!;
        if (entry.key > after) yield entry;
      }
      if (this.done || signal.aborted) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.waiters.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** How often a follower of a turn another instance runs reads its log when it hears nothing (a notification lost). */
export const FOLLOW_LOOK_MS = 1_000;

/**
 * A turn as its record and log keep it: one that ended (a resume after the turn, or after a
 * restart, replays its frames), or one another instance is running (a resume that reached
 * this one): its log is read as that instance writes it (TurnStore.changed), until its end
 * is recorded, the turn's own or the interrupted one a lapsed lease gets (recover.ts).
 */
export class LoggedTurn implements FollowableTurn {
  readonly interactionId: string;
  readonly threadId: string;
  readonly userText: string;
  readonly userId: string;
  readonly caller: string;
  readonly idempotencyKey: string | null;
  private ended: Promise<TurnResult> | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly record: TurnRecord,
  ) {
    this.interactionId = record.id;
    this.threadId = record.threadId;
    this.userText = record.userText;
    this.userId = record.userId;
    this.caller = record.caller;
    this.idempotencyKey = record.idempotencyKey;
  }

  /** Read only by the REST routes that join a turn (a stream never awaits it): waits for a running turn's end. */
  get result(): Promise<TurnResult> {
    this.ended ??= (async () => {
      let record: TurnRecord | undefined = this.record;
      const never = new AbortController().signal;
      while (record?.status === 'running') {
        await this.deps.stores.turns.changed(record.id, never, FOLLOW_LOOK_MS);
        record = await this.deps.stores.turns.get(record.id);
      }
      return record ? storedResult(this.deps, record) : GONE;
    })();
    return this.ended;
  }

  resumes(lastSeq: number): boolean {
    return lastSeq === 0 || lastSeq >= this.record.startSeq;
  }

  async *follow(after: number, signal: AbortSignal): AsyncGenerator<LoggedFrame> {
    const { turns } = this.deps.stores;
    let running = this.record.status === 'running';
    for (;;) {
      // Its state before its frames: once it is seen ended, every frame it wrote is in the log (finish flushes first).
      if (running) running = (await turns.get(this.record.id))?.status === 'running';
      for (const entry of await turns.frames(this.record.id, after)) {
        if (signal.aborted) return;
        after = entry.key;
        yield entry;
      }
      if (!running || signal.aborted) return;
      await turns.changed(this.record.id, signal, FOLLOW_LOOK_MS);
    }
  }
}

const GONE: TurnResult = { ok: false, message: 'The turn is no longer kept.', status: 409, code: 'conflict' };

/** An ended turn's result; an ok one's reply is read from the transcript, where it is kept. */
async function storedResult(deps: Deps, record: TurnRecord): Promise<TurnResult> {
  const stored = record.result;
  if (!stored) return { ok: false, message: 'The turn has not ended.', status: 409, code: 'conflict' };
  if (!stored.ok) return { ok: false, message: stored.message, status: stored.status, ...(stored.code ? { code: stored.code } : {}) };
  const reply = (await deps.stores.threads.messages(record.threadId)).findLast((m) => m.id === record.id && m.sender.type === 'agent');
  return reply ? { ok: true, message: reply } : { ok: false, message: 'The reply is no longer kept.', status: 409, code: 'conflict' };
}

/**
 * The turn a thread's latest turn id names: the one running here, else the one its record
 * and log keep, ended or running on another instance. (An instance that stopped left its
 * turns `interrupted`, or they are once their lease lapses; see recover.ts.)
 */
export async function findTurn(deps: Deps, id: string | null | undefined): Promise<FollowableTurn | undefined> {
  if (!id) return undefined;
  const live = deps.live.get(id);
  if (live) return live;
  const record = await deps.stores.turns.get(id);
  return record && new LoggedTurn(deps, record);
}

/** A turn's trace record: its steps are the recorder's, live while the turn runs. */
function traceOf(turn: Turn, thread: ThreadRecord, version: AgentVersion): Trace {
  return {
    interaction_id: turn.interactionId,
    thread_id: thread.id,
    agent_id: thread.agentId,
    version_id: version.id,
    version_tag: version.tag,
    status: 'running',
    started_at: new Date().toISOString(),
    ended_at: null,
    duration_ms: null,
    error: null,
    steps: turn.trace.steps,
    truncated: false,
  };
}

/**
 * Whether a resume may attach to `turn`: the session that asked it (a page that kept its
 * token), or one that names its question and user as they were asked (another tab, a page
 * with a new token). Anyone else who knows the thread's id gets nothing of the turn.
 */
export function mayResume(turn: FollowableTurn, asker: { session: string; userId?: string; text?: string }): boolean {
  return (turn.caller !== '' && turn.caller === asker.session) || (asker.userId === turn.userId && asker.text === turn.userText);
}

/** Word-ish chunks (each word with the whitespace before it), or fixed-size ones. */
export function chunkText(text: string, chunkChars?: number): string[] {
  if (!text) return [];
  if (chunkChars) {
    if (chunkChars >= text.length) return [text];
    const chars = Array.from(text);
    const out: string[] = [];
    for (let i = 0; i < chars.length; i += chunkChars) out.push(chars.slice(i, i + chunkChars).join(''));
    return out;
  }
  return text.match(/\s*\S+|\s+$/g) ?? [text];
}

/**
 * Starts a turn and returns once it is recorded (a resume from another request finds it
 * from then on); the turn runs to completion whoever listens.
 */
export async function startTurn(deps: Deps, options: TurnOptions): Promise<Turn> {
  const { key, thread } = options;
  const previous = deps.live.ofThread(thread.id);
  previous?.cancel('A newer message on this thread superseded this reply.');
  const turn = new Turn(
    thread.id,
    options.text,
    Math.max(thread.lastSeq, previous?.seq ?? 0),
    options.idempotencyKey ?? null,
    (frames) => deps.stores.turns.log(turn.interactionId, frames),
    options.userId,
    options.caller ?? '',
  );
  const trace = traceOf(turn, thread, options.version);
  // The thread as the agent is to see it: before the turn (whatever joins the transcript as it starts).
  const history = await deps.stores.threads.messages(thread.id);
  const record: TurnRecord = {
    id: turn.interactionId,
    threadId: thread.id,
    key: key.key,
    userId: options.userId,
    userText: options.text,
    startSeq: turn.startSeq,
    status: 'running',
    result: null,
    idempotencyKey: options.idempotencyKey ?? null,
    caller: options.caller ?? '',
    openedThread: options.openedThread ?? false,
    createdAt: trace.started_at,
    endedAt: null,
  };
  try {
    // Forgotten by its key's budget, or deleted, since the request found it: as if not found.
    if (!(await deps.stores.turns.begin({ turn: record, trace, versionId: options.version.id, versionTag: options.version.tag }))) {
      throw notFound('Thread');
    }
  } catch (error) {
    options.admitted.done();
    throw error;
  }
  deps.live.add(turn);
  void run(deps, turn, trace, options, history)
    .catch(async (error: unknown) => {
      // The turn has no HTTP response to fail, so the failure goes to its listeners.
      console.error('turn: failed', error);
      const message = error instanceof Error ? error.message : 'The agent failed.';
      await end(deps, turn, trace, options, { status: 'failed', result: { ok: false, message, status: 500 }, messages: [] }).catch(
        (again: unknown) => console.error('turn: its end could not be recorded', again),
      );
    })
    .finally(() => turn.abort.abort());
  return turn;
}

interface Ending {
  status: Exclude<TurnStatus, 'running'>;
  result: TurnResult;
  /** What the transcript gains. */
  messages: Message[];
  /** The frame that ends the stream (the reply, or an error), pushed once the end is recorded. */
  frame?: { frame: TurnFrame; key: number };
}

/**
 * Records how a turn ended (its result, messages, trace, the thread's seq), then lets its
 * followers and callers go: a client that read `[DONE]` or the REST answer finds the
 * transcript already holding the turn. The key's leave goes back first.
 */
async function end(deps: Deps, turn: Turn, trace: Trace, options: TurnOptions, ending: Ending): Promise<void> {
  if (turn.done) return;
  const ended = new Date();
  trace.ended_at = ended.toISOString();
  trace.duration_ms = ended.getTime() - Date.parse(trace.started_at);
  trace.truncated = turn.trace.truncated;
  trace.steps = turn.trace.steps;
  if (ending.status === 'completed') trace.status = 'completed';
  else {
    trace.status = ending.status === 'cancelled' ? 'cancelled' : ending.status === 'interrupted' ? 'interrupted' : 'failed';
    const r = ending.result as Extract<TurnResult, { ok: false }>;
    trace.error = { code: r.code ?? (r.status === 409 ? 'conflict' : 'internal_error'), message: r.message };
  }
  // The closing frame is in the log before the end is: a replay after the end has it.
  if (ending.frame) {
    turn.bytes += frameBytes(ending.frame.frame);
    deps.stores.turns.log(turn.interactionId, [ending.frame]);
  }
  try {
    await deps.stores.turns.finish({
      id: turn.interactionId,
      threadId: turn.threadId,
      status: ending.status,
      result: ending.result,
      endedAt: trace.ended_at,
      messages: ending.messages,
      lastSeq: turn.seq,
      frameBytes: turn.bytes,
      trace,
      traceBytes: sizeOf(trace),
      facets: facetsOf(trace.steps),
    });
    // What the turn added brought within its key's budget before anyone hears the end: a
    // client that read the reply finds the key as it will stay.
    await deps.budgets
      .settle(options.key, turn.threadId)
      .catch((error: unknown) => console.error('turn: the key could not be settled', error));
  } finally {
    options.admitted.done();
    if (ending.frame) turn.entries.push(ending.frame);
    turn.finish(ending.result);
    deps.live.remove(turn);
  }
}

async function run(deps: Deps, turn: Turn, trace: Trace, o: TurnOptions, history: Message[]): Promise<void> {
  const { thread, key } = o;
  const userCreatedAt = new Date().toISOString();
  const agent: Agent = deps.agentFor(key);
  const input = {
    text: o.text,
    history,
    imageUrl: o.imageUrl,
    variables: o.variables,
    version: o.version,
    origin: o.origin,
    trace: turn.trace,
    streaming: o.streaming,
  };
  const answer = agent.answer(input, turn.abort.signal);
  const paceMs = o.streaming ? (agent.paceMs ?? 0) : null;
  // The reply as it streamed: its first frame to its last, what it carried.
  const streamed = turn.trace.begin('reply', 'stream', { pace_ms: paceMs });

  const userMessage: Message = {
    id: turn.interactionId,
    created_at: userCreatedAt,
    text: o.text,
    sender: { type: 'user', id: o.userId },
    receiver: { type: 'agent', id: thread.agentId },
    cards: [],
    followup_suggestions: [],
    input_tokens: 0,
    output_tokens: 0,
  };

  let sent = 0;
  let text = '';
  /** Past MAX_TURN_FRAMES the rest of the text waits here for the turn's last token frame. */
  let held = '';

  const fail = (
    message: string,
    status: number,
    field: 'status' | 'status_code' | 'code' = 'status',
    code?: string,
    retryAfter?: number | null,
  ) => {
    if (turn.interrupted) return interrupted();
    streamed({ output: { chars: text.length, frames: sent }, error: { code: code ?? String(status), message } });
    // The agent's own code (a model that is busy) reaches stream clients too, as on REST, with
    // the request that started the turn and, when the agent knows, how long to wait.
    const frame: ErrorFrame = {
      type: 'error',
      data: {
        message,
        [field]: status,
        ...(code ? { code } : {}),
        ...(o.requestId ? { request_id: o.requestId } : {}),
        ...(retryAfter != null ? { retry_after: retryAfter } : {}),
      },
    };
    return end(deps, turn, trace, o, {
      status: status === 409 ? 'cancelled' : 'failed',
      result: { ok: false, message, status, code, ...(retryAfter != null ? { retryAfter } : {}) },
      messages: [],
      frame: { frame, key: turn.seq + 0.5 },
    });
  };

  /** The server stopped first: the question and the reply so far join the transcript, marked (recover.ts). */
  const interrupted = () => {
    streamed({ output: { chars: text.length, frames: sent }, error: { code: INTERRUPTED.code, message: INTERRUPTED.message } });
    const frame: ErrorFrame = { type: 'error', data: { message: INTERRUPTED.message, status: INTERRUPTED.status, code: INTERRUPTED.code } };
    const reply = interruptedReply(turn.interactionId, text, o.userId);
    return end(deps, turn, trace, o, {
      status: 'interrupted',
      result: { ok: false, message: INTERRUPTED.message, status: INTERRUPTED.status, code: INTERRUPTED.code },
      messages: [userMessage, reply],
      frame: { frame, key: turn.seq + 0.5 },
    });
  };

  try {
    for await (const piece of answer.chunks) {
      // A paced reply is cut into words (or pieces) at its agent's pace; a model's deltas go as they come.
      for (const chunk of answer.paced ? chunkText(piece, answer.chunkChars) : [piece]) {
        const holding = sent >= MAX_TURN_FRAMES - 1;
        if (answer.paced && !holding && paceMs !== null) await sleep(paceMs);
        if (turn.cancelReason) return await fail(turn.cancelReason, 409);
        if (!chunk) continue;
        if (text.length + chunk.length > MAX_REPLY_CHARS) {
          turn.abort.abort();
          return await fail(`The reply is longer than ${MAX_REPLY_CHARS} characters.`, 502, 'status', 'agents.reply_too_large');
        }
        text += chunk;
        if (holding) held += chunk;
        else {
          const seq = turn.nextSeq();
          turn.push({ type: 'event', seq, data: { text: chunk } }, seq);
          sent += 1;
        }
      }
    }
    if (held) {
      const seq = turn.nextSeq();
      turn.push({ type: 'event', seq, data: { text: held } }, seq);
    }
  } catch (error) {
    if (turn.cancelReason) return await fail(turn.cancelReason, 409);
    if (error instanceof AgentFailure)
      return await fail(error.message, error.status, error.statusField, error.code, error.retryAfterSeconds);
    throw error;
  }

  if (paceMs !== null) await sleep(answer.paced ? paceMs : 0);
  if (turn.cancelReason) return await fail(turn.cancelReason, 409);

  const { cards, suggestions, usage } = answer.rest();
  const promptText = history.map((m) => m.text).join('\n') + o.text;
  const agentMessage: Message = {
    // The real service gives the user message of a turn and its reply the same id: the interaction id.
    id: turn.interactionId,
    created_at: new Date().toISOString(),
    text,
    sender: { type: 'agent' },
    receiver: { type: 'user', id: o.userId },
    cards,
    followup_suggestions: suggestions,
    input_tokens: usage?.input ?? 180 + estimateTokens(promptText),
    output_tokens: usage?.output ?? estimateTokens(text) + estimateTokens(JSON.stringify(cards)),
  };
  streamed({
    output: {
      chars: text.length,
      frames: sent + (held ? 1 : 0),
      cards: cards.length,
      suggestions,
      input_tokens: agentMessage.input_tokens,
      output_tokens: agentMessage.output_tokens,
    },
  });
  const seq = turn.nextSeq();
  await end(deps, turn, trace, o, {
    status: 'completed',
    result: { ok: true, message: agentMessage },
    messages: [userMessage, agentMessage],
    frame: { frame: { type: 'message', seq, data: agentMessage }, key: seq },
  });
}
