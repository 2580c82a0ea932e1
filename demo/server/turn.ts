import type { AgentVariables, Card, ErrorFrame, Message, MessageFrame, TokenFrame } from '../../src/client/types.js';
import { AgentFailure, estimateTokens, wholeAnswer, type Agent, type AgentReply } from './agent.js';
import type { FaultPlan } from './faults.js';
import { newHexId, type AgentVersion, type KeyRecord, type Store, type ThreadRecord } from './store.js';

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
  paceMs: number;
  chunkChars?: number;
  /** Set when this turn must fail mid-stream (the `errorFrame` knob). */
  errorFrame?: FaultPlan['errorFrame'];
  /** Origin of the request, for absolute card image URLs. */
  origin?: string;
}

/** Waits `ms`, or less when `signal` aborts (a cancelled turn lets go of its timer). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class Turn {
  readonly interactionId = newHexId();
  readonly entries: TurnEntry[] = [];
  done = false;
  readonly result: Promise<TurnResult>;
  private settle!: (result: TurnResult) => void;
  private waiters = new Set<() => void>();
  private cancelled: string | null = null;
  /** Aborts the agent's work (a model's request) when the turn is cancelled. */
  readonly abort = new AbortController();

  constructor(
    readonly threadId: string,
    readonly userText: string,
    /** The thread's last seq when the turn began: this turn's frames come after it. */
    readonly startSeq = 0,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
  }

  push(frame: TurnFrame, key: number): void {
    this.entries.push({ key, frame });
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
  const { key, thread } = options;
  const turn = new Turn(thread.id, options.text, thread.lastSeq);
  thread.latestTurn?.cancel('A newer message on this thread superseded this reply.');
  thread.latestTurn = turn;
  key.stats.turnsRun += 1;
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
  const input = { text: o.text, history, imageUrl: o.imageUrl, variables: o.variables, version: o.version, origin: o.origin };
  const answer = scripted ? wholeAnswer(scripted) : o.agent.answer(input, turn.abort.signal);

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

  const fail = (message: string, status: number, field: 'status' | 'status_code' | 'code' = 'status', code?: string) => {
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
        if (answer.paced) await sleep(o.paceMs);
        if (turn.cancelReason) return fail(turn.cancelReason, 409);
        if (sent >= failAt) break pieces;
        if (!chunk) continue;
        text += chunk;
        turn.push({ type: 'event', seq: ++thread.lastSeq, data: { text: chunk } }, thread.lastSeq);
        sent += 1;
      }
    }
  } catch (error) {
    if (turn.cancelReason) return fail(turn.cancelReason, 409);
    if (error instanceof AgentFailure) return fail(error.message, error.status, 'status', error.code);
    throw error;
  }
  if (o.errorFrame && sent >= failAt) {
    const e = o.errorFrame;
    return fail(e.message ?? 'The agent is temporarily unavailable.', e.status ?? 503, e.statusField ?? 'status');
  }

  await sleep(answer.paced ? o.paceMs : 0);
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
