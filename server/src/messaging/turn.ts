import type { AgentVariables, Card, ErrorFrame, Message, MessageFrame, TokenFrame } from '@agent-chat/wire';
import { AgentFailure, estimateTokens, wholeAnswer, type Agent, type AgentReply } from '../agents/demo-agent.js';
import type { FaultPlan } from '../faults/plan.js';
import { FRAME_OVERHEAD_BYTES, MAX_REPLY_CHARS, MAX_TURN_FRAMES, sizeOf } from '../store/limits.js';
import type { AgentVersion } from '../agents/versions.js';
import { newHexId, type Admission, type KeyRecord, type Store, type ThreadRecord } from '../store/store.js';
import { TraceRecorder, type Trace } from '../agents/trace.js';

/**
 * One agent turn. It runs on its own, not inside the HTTP response that started it: its
 * frames go into a buffer that any number of connections follow. That is what makes resume
 * honest (a reconnect replays the buffer instead of running the agent again) and what lets
 * a fault knob cut a connection while the turn carries on, as a real proxy drop would.
 */

type TurnFrame = TokenFrame | MessageFrame | ErrorFrame;

export interface TurnEntry {
  /**
   * Replay position: the frame's `seq`, or for an unsequenced error frame the previous
   * seq plus one half, so a resume from that previous seq still receives the error.
   */
  key: number;
  frame: TurnFrame;
}

export type TurnResult =
  | { ok: true; message: Message }
  /** `code`: the envelope's code for a REST caller (the agent's failure), when not the status's. */
  | { ok: false; message: string; status: number; code?: string };

export interface TurnOptions {
  store: Store;
  agent: Agent;
  key: KeyRecord;
  thread: ThreadRecord;
  text: string;
  userId: string;
  imageUrl?: string;
  variables?: AgentVariables;
  version: AgentVersion;
  /**
   * Milliseconds between the frames of a scripted reply; `null`: no pause at all, for a
   * turn whose frames nobody watches as they come (REST, rerun: one JSON answer). Each
   * pause is a timer, even at 0: a 200 KB reply cut into words took 40 s to answer.
   */
  paceMs: number | null;
  chunkChars?: number;
  /** Set when this turn must fail mid-stream (the `errorFrame` knob). */
  errorFrame?: FaultPlan['errorFrame'];
  /** Origin of the request, for absolute card image URLs. */
  origin?: string;
  /** The key's leave for this turn (`Store.admitTurn`), given back when it ends. */
  admitted: Admission;
}

/** Waits `ms`, or less when `signal` aborts (a cancelled turn lets go of its timer). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class Turn {
  readonly interactionId = newHexId();
  /** The `Idempotency-Key` of the request that started it, if it had one (idempotency.ts). */
  idempotencyKey?: string;
  readonly entries: TurnEntry[] = [];
  done = false;
  readonly result: Promise<TurnResult>;
  private settle!: (result: TurnResult) => void;
  private waiters = new Set<() => void>();
  private cancelled: string | null = null;
  /** Aborts the agent's work (a model's request) when the turn is cancelled. */
  readonly abort = new AbortController();
  /** What the turn does, step by step (trace.ts); kept on its thread from the start. */
  readonly trace = new TraceRecorder();
  /** Counted bytes of the buffered frames (limits.ts), against the thread's key as they come. */
  private bytes = 0;

  constructor(
    readonly threadId: string,
    readonly userText: string,
    /** The thread's last seq when the turn began: this turn's frames come after it. */
    readonly startSeq = 0,
    private account: (bytes: number) => void = () => {},
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
  }

  push(frame: TurnFrame, key: number): void {
    this.entries.push({ key, frame });
    // A message frame's data is the reply the transcript keeps: counted there, not twice.
    const bytes =
      frame.type === 'event'
        ? 2 * (frame.data.text?.length ?? 0) + FRAME_OVERHEAD_BYTES
        : frame.type === 'message'
          ? FRAME_OVERHEAD_BYTES
          : sizeOf(frame);
    this.bytes += bytes;
    this.account(bytes);
    this.wake();
  }

  /** The thread's newer turn replaces this one: its frames count no more; returns what they counted. */
  detach(): number {
    this.account = () => {};
    return this.bytes;
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

  /**
   * Whether a client that saw up to `lastSeq` of some turn is resuming this one: its seq is
   * within this turn's frames (or 0: it saw none of any turn). An earlier turn's seq means
   * that turn, not this later one with the same question.
   */
  resumes(lastSeq: number): boolean {
    return lastSeq === 0 || lastSeq >= this.startSeq;
  }

  /** Buffered entries after `after`, then live ones, until the turn ends or `signal` aborts. */
  async *follow(after: number, signal: AbortSignal): AsyncGenerator<TurnEntry> {
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

/** Starts a turn and returns at once; the turn runs to completion whoever listens. */
export function startTurn(options: TurnOptions): Turn {
  const { key, thread, store } = options;
  const previous = thread.latestTurn;
  previous?.cancel('A newer message on this thread superseded this reply.');
  // Only the newest turn is kept for resume: the one it replaces gives its bytes back.
  if (previous) store.grow(thread, -previous.detach());
  const turn = new Turn(thread.id, options.text, thread.lastSeq, (bytes) => store.grow(thread, bytes));
  thread.latestTurn = turn;
  thread.versionId = options.version.id;
  thread.versionTag = options.version.tag;
  thread.updatedAt = new Date().toISOString();
  key.stats.turnsRun += 1;
  const trace = traceOf(turn, thread, options.version);
  store.startTrace(thread, trace);
  // The key's leave goes back as the turn ends, before anyone awaiting its result resumes.
  void turn.result.then((result) => {
    options.admitted.done();
    const ended = new Date();
    trace.ended_at = ended.toISOString();
    trace.duration_ms = ended.getTime() - Date.parse(trace.started_at);
    trace.truncated = turn.trace.truncated;
    if (result.ok) trace.status = 'completed';
    else {
      trace.status = result.status === 409 ? 'cancelled' : 'failed';
      trace.error = { code: result.code ?? (result.status === 409 ? 'conflict' : 'internal_error'), message: result.message };
    }
    store.endTrace(thread, trace);
  });
  void run(turn, options)
    .finally(() => turn.abort.abort())
    .catch((error: unknown) => {
      // The turn has no HTTP response to fail, so the failure goes to its listeners.
      const message = error instanceof Error ? error.message : 'The agent failed.';
      turn.push({ type: 'error', data: { message, status: 500 } }, thread.lastSeq + 0.5);
      turn.finish({ ok: false, message, status: 500 });
    });
  return turn;
}

async function run(turn: Turn, o: TurnOptions): Promise<void> {
  const { thread, key } = o;
  const history = thread.messages.slice();
  const userCreatedAt = new Date().toISOString();
  const scripted = scriptedReply(key);
  const input = {
    text: o.text,
    history,
    imageUrl: o.imageUrl,
    variables: o.variables,
    version: o.version,
    origin: o.origin,
    trace: turn.trace,
  };
  if (scripted) turn.trace.note('intent', 'scripted', { input: { text: o.text }, output: { reply: key.repliesUsed - 1 } });
  const answer = scripted ? wholeAnswer(scripted) : o.agent.answer(input, turn.abort.signal);
  // The reply as it streamed: its first frame to its last, what it carried.
  const streamed = turn.trace.begin('reply', 'stream', { pace_ms: o.paceMs });

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
  // Both join the transcript when the turn ends, unless the plan records the question at once.
  const early = key.plan.transcriptAt === 'start';
  if (early) o.store.append(thread, userMessage);

  // `after` counts frames of the turn as a client sees them, the `thread` frame first.
  const failAt = o.errorFrame ? Math.max(0, o.errorFrame.after - 1) : Infinity;
  let sent = 0;
  let text = '';
  /** Past MAX_TURN_FRAMES the rest of the text waits here for the turn's last token frame. */
  let held = '';

  const fail = (message: string, status: number, field: 'status' | 'status_code' | 'code' = 'status', code?: string) => {
    streamed({ output: { chars: text.length, frames: sent }, error: { code: code ?? String(status), message } });
    // The agent's own code (a model that is busy) reaches stream clients too, as on REST.
    turn.push({ type: 'error', data: { message, [field]: status, ...(code ? { code } : {}) } }, thread.lastSeq + 0.5);
    turn.finish({ ok: false, message, status, code });
  };

  try {
    // The `thinkMs` knob: nothing at all for a while, on every connection (cancellable).
    if (key.plan.thinkMs) await sleep(key.plan.thinkMs, turn.abort.signal);
    pieces: for await (const piece of answer.chunks) {
      // A scripted reply is cut into words at the demo's pace; a model's deltas go as they come.
      for (const chunk of answer.paced ? chunkText(piece, o.chunkChars) : [piece]) {
        const holding = sent >= MAX_TURN_FRAMES - 1;
        if (answer.paced && !holding && o.paceMs !== null) await sleep(o.paceMs);
        if (turn.cancelReason) return fail(turn.cancelReason, 409);
        if (sent >= failAt) break pieces;
        if (!chunk) continue;
        if (text.length + chunk.length > MAX_REPLY_CHARS) {
          turn.abort.abort();
          return fail(`The reply is longer than ${MAX_REPLY_CHARS} characters.`, 502, 'status', 'agents.reply_too_large');
        }
        text += chunk;
        if (holding) held += chunk;
        else turn.push({ type: 'event', seq: ++thread.lastSeq, data: { text: chunk } }, thread.lastSeq);
        if (!holding) sent += 1;
      }
    }
    if (held) turn.push({ type: 'event', seq: ++thread.lastSeq, data: { text: held } }, thread.lastSeq);
  } catch (error) {
    if (turn.cancelReason) return fail(turn.cancelReason, 409);
    if (error instanceof AgentFailure) return fail(error.message, error.status, 'status', error.code);
    throw error;
  }
  if (o.errorFrame && sent >= failAt) {
    const e = o.errorFrame;
    return fail(e.message ?? 'The agent is temporarily unavailable.', e.status ?? 503, e.statusField ?? 'status');
  }

  if (o.paceMs !== null) await sleep(answer.paced ? o.paceMs : 0);
  if (turn.cancelReason) return fail(turn.cancelReason, 409);

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
  if (early) o.store.append(thread, agentMessage);
  else o.store.append(thread, userMessage, agentMessage);
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
  turn.push({ type: 'message', seq: ++thread.lastSeq, data: agentMessage }, thread.lastSeq);
  turn.finish({ ok: true, message: agentMessage });
}

/** The `replies` knob: turn by turn, the last entry repeating. Sent verbatim, however hostile. */
function scriptedReply(key: KeyRecord): AgentReply | undefined {
  const replies = key.plan.replies;
  if (!replies?.length) return undefined;
  const entry = replies[Math.min(key.repliesUsed, replies.length - 1)]!;
  key.repliesUsed += 1;
  return { text: entry.text.repeat(entry.repeat ?? 1), cards: (entry.cards ?? []) as Card[], suggestions: entry.suggestions ?? [] };
}
