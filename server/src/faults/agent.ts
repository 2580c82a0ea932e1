import type { Card } from '@agent-chat/wire';
import { AgentFailure, wholeAnswer, type Agent, type AgentAnswer, type AgentInput } from '../agents/demo-agent.js';
import { chunkText } from '../messaging/turn.js';
import type { FaultPlan } from './plan.js';
import type { FaultState } from './state.js';

/** Waits `ms`, or less when `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The agent as a minted key's fault plan has it answer (faults.ts): scripted `replies`,
 * another `paceMs` or `chunkChars`, a `thinkMs` of silence first, an `errorFrame` after some
 * frames of a streamed turn, another `welcome` and `suggestions`. Everything else is the
 * agent it wraps.
 */
export class FaultyAgent implements Agent {
  readonly description: string;
  readonly paceMs?: number;

  constructor(
    private readonly inner: Agent,
    private readonly plan: FaultPlan,
    private readonly state: FaultState,
  ) {
    this.description = inner.description;
    this.paceMs = plan.paceMs ?? inner.paceMs;
  }

  welcomeTemplate(): string {
    return this.plan.welcome ?? this.inner.welcomeTemplate();
  }

  suggestionsFor(context: Record<string, unknown> | undefined): string[] {
    return this.plan.suggestions ?? this.inner.suggestionsFor(context);
  }

  answer(input: AgentInput, signal: AbortSignal): AgentAnswer {
    const { plan, state } = this;
    const scripted = this.scripted();
    if (scripted) input.trace?.note('intent', 'scripted', { input: { text: input.text }, output: { reply: state.repliesUsed - 1 } });
    const answer = scripted ? wholeAnswer(scripted) : this.inner.answer(input, signal);
    // `errorFrame`: streamed turns only, `times` of them.
    const failing = input.streaming && plan.errorFrame !== undefined && state.budget.errorFrames > 0;
    if (failing) state.budget.errorFrames -= 1;
    if (!failing && !plan.thinkMs) return { ...answer, chunkChars: plan.chunkChars ?? answer.chunkChars };

    const pace = input.streaming ? (this.paceMs ?? 0) : null;
    const error = plan.errorFrame;
    // `after` counts the frames a client sees, the `thread` frame first.
    const failAt = failing && error ? Math.max(0, error.after - 1) : Infinity;
    const chunks = async function* (): AsyncGenerator<string> {
      // `thinkMs`: nothing at all for a while, on every connection (a hung agent, a slow tool).
      if (plan.thinkMs) await sleep(plan.thinkMs, signal);
      let sent = 0;
      const fail = () =>
        new AgentFailure(
          error!.message ?? 'The agent is temporarily unavailable.',
          error!.status ?? 503,
          undefined,
          error!.statusField ?? 'status',
        );
      if (sent >= failAt) throw fail();
      for await (const piece of answer.chunks) {
        if (!failing) {
          yield piece;
          continue;
        }
        // Frame by frame, to fail after the right one: paced here, as the turn would have.
        for (const chunk of answer.paced ? chunkText(piece, plan.chunkChars) : [piece]) {
          if (answer.paced && pace !== null) await sleep(pace, signal);
          if (signal.aborted) return;
          yield chunk;
          if (++sent >= failAt) throw fail();
        }
      }
    };
    return { ...answer, chunks: chunks(), paced: failing ? false : answer.paced, chunkChars: plan.chunkChars ?? answer.chunkChars };
  }

  /** The `replies` knob: turn by turn, the last entry repeating. Sent verbatim, however hostile. */
  private scripted() {
    const replies = this.plan.replies;
    if (!replies?.length) return undefined;
    const entry = replies[Math.min(this.state.repliesUsed, replies.length - 1)]!;
    this.state.repliesUsed += 1;
    return { text: entry.text.repeat(entry.repeat ?? 1), cards: (entry.cards ?? []) as Card[], suggestions: entry.suggestions ?? [] };
  }
}
