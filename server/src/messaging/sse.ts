import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ThreadFrame } from '@agent-chat/wire';
import type { FaultPlan } from '../faults/plan.js';
import type { FollowableTurn } from './turn.js';

/** A stalled connection is given up eventually, so a forgotten tab does not pin it forever. */
const STALL_LIMIT_MS = 5 * 60_000;

export interface ConnectionOptions {
  /** Replay frames whose seq is above this (the request's `Last-Event-ID`, or -1 for all). */
  after: number;
  plan: FaultPlan;
  /** Index of this connection among the key's stream connections: knobs address them by it. */
  connection: number;
  /** `plan.rawTurns` entry of this turn: written verbatim instead of the turn's frames. */
  raw?: string[];
}

/**
 * Writes one connection's view of a turn: the `thread` frame, the buffered frames after
 * `after`, then live frames until the turn ends, then `[DONE]`. Connection-level fault knobs
 * act here and only here; the turn itself never notices a cut, a stall or a bad frame.
 * "Frames" are counted per connection, the `thread` frame included, `[DONE]` excluded.
 */
export function streamTurn(c: Context, turn: FollowableTurn, { after, plan, connection, raw }: ConnectionOptions): Response {
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => gone.abort());

    const dropAt = plan.dropAfter?.[connection];
    const stallAt = connection === 0 ? plan.stallAfter : undefined;
    let malformedAt = connection === 0 ? plan.malformedAfter : undefined;
    let unknownAt = plan.unknownFrameAfter;
    let written = 0;

    /** Applies the knobs due at the current frame count; false means stop writing. */
    const checkpoint = async (): Promise<boolean> => {
      for (;;) {
        if (gone.signal.aborted) return false;
        if (dropAt !== undefined && written >= dropAt) return false;
        if (stallAt !== undefined && written >= stallAt) {
          const keepalive = plan.keepaliveMs ? setInterval(() => void stream.write(': keepalive\n\n'), plan.keepaliveMs) : undefined;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, STALL_LIMIT_MS);
            gone.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
          clearInterval(keepalive);
          return false;
        }
        if (malformedAt !== undefined && written >= malformedAt) {
          malformedAt = undefined;
          await stream.writeSSE({ data: '{"type":"event","seq":' });
          written += 1;
          continue;
        }
        if (unknownAt !== undefined && written >= unknownAt) {
          unknownAt = undefined;
          await stream.writeSSE({ data: JSON.stringify({ type: 'progress', data: { stage: 'retrieving' } }) });
          written += 1;
          continue;
        }
        return true;
      }
    };

    const send = async (data: string, id?: number): Promise<boolean> => {
      await stream.writeSSE(id === undefined ? { data } : { data, id: String(id) });
      written += 1;
      return checkpoint();
    };

    if (!(await checkpoint())) return;
    const threadFrame: ThreadFrame = { type: 'thread', data: { thread_id: turn.threadId } };
    if (!(await send(JSON.stringify(threadFrame)))) return;
    if (raw) {
      for (const data of raw) if (!(await send(data))) return;
    } else {
      for await (const { frame } of turn.follow(after, gone.signal)) {
        if (!(await send(JSON.stringify(frame), frame.seq))) return;
      }
    }
    if (plan.keepOpen) await new Promise<void>((resolve) => gone.signal.addEventListener('abort', () => resolve(), { once: true }));
    if (gone.signal.aborted || plan.omitDone) return;
    await stream.writeSSE({ data: '[DONE]' });
  });
}
