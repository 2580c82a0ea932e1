import type { ErrorFrame, Message } from '@agent-chat/wire';
import type { Trace } from '../agents/trace.js';
import type { Stores } from '../store/index.js';
import { EMPTY_FACETS } from '../store/threads.js';
import { INTERRUPTED, interruptedReply } from './interrupted.js';

/**
 * Ends the turns a stopped process left running (a crash, a kill): those whose lease lapsed,
 * or with `all` every one (an embedded database belongs to one process, so at its start
 * whatever is running was left). Each is recorded as interrupted, its log gains an `error` frame with the code
 * `turn.interrupted` (so a client resuming it gets a clean end, then `[DONE]`), and its
 * transcript the question and what the reply had said so far, marked as interrupted. Run
 * at start, before the server takes requests, and on a shared PostgreSQL every LEASE_MS;
 * returns how many it ended.
 */
export async function interruptUnfinished(stores: Stores, options: { all?: boolean } = {}): Promise<number> {
  const turns = await stores.turns.unfinished(options);
  for (const turn of turns) {
    const frames = await stores.turns.frames(turn.id, -1);
    let lastSeq = turn.startSeq;
    let text = '';
    for (const { frame } of frames) {
      if (typeof frame.seq === 'number') lastSeq = Math.max(lastSeq, frame.seq);
      const data = frame.data as { text?: unknown } | undefined;
      if (frame.type === 'event' && typeof data?.text === 'string') text += data.text;
    }
    const error: ErrorFrame = { type: 'error', data: { message: INTERRUPTED.message, status: INTERRUPTED.status, code: INTERRUPTED.code } };
    stores.turns.log(turn.id, [{ key: lastSeq + 0.5, frame: error }]);
    const endedAt = new Date().toISOString();
    const transcript = await stores.threads.messages(turn.threadId);
    const asked = transcript.some((m) => m.id === turn.id && m.sender.type === 'user');
    const thread = await stores.threads.get(turn.threadId);
    const messages: Message[] = [];
    if (!asked) {
      messages.push({
        id: turn.id,
        created_at: turn.createdAt,
        text: turn.userText,
        sender: { type: 'user', id: turn.userId },
        receiver: { type: 'agent', id: thread?.agentId },
        cards: [],
        followup_suggestions: [],
        input_tokens: 0,
        output_tokens: 0,
      });
    }
    messages.push(interruptedReply(turn.id, text, turn.userId));
    const stored = await stores.traces.get(turn.id);
    const trace: Trace | undefined = stored && {
      ...stored,
      status: 'interrupted',
      ended_at: endedAt,
      duration_ms: Date.parse(endedAt) - Date.parse(stored.started_at),
      error: { code: INTERRUPTED.code, message: INTERRUPTED.message },
    };
    await stores.turns.finish({
      id: turn.id,
      threadId: turn.threadId,
      status: 'interrupted',
      result: { ok: false, message: INTERRUPTED.message, status: INTERRUPTED.status, code: INTERRUPTED.code },
      endedAt,
      messages,
      lastSeq,
      frameBytes: 0,
      trace: trace ?? ({ interaction_id: turn.id } as Trace),
      traceBytes: 0,
      facets: EMPTY_FACETS,
    });
  }
  return turns.length;
}
