import type { ConnectionIo, ConnectionTap } from '../messaging/sse.js';
import type { FaultPlan } from './plan.js';

/** A stalled connection is given up eventually, so a forgotten tab does not pin it forever. */
const STALL_LIMIT_MS = 5 * 60_000;

/**
 * The connection knobs (faults.ts "dropAfter", "stallAfter", "malformedAfter",
 * "unknownFrameAfter", "keepaliveMs", "keepOpen", "omitDone", "rawTurns"): one connection's
 * tap, the `connection`-th of its key (an SSE stream or a WebSocket session, each counted on
 * its own). They act on the connection only; the turn never notices.
 */
export function faultyConnection(plan: FaultPlan, connection: number, raw?: readonly string[]): ConnectionTap {
  const dropAt = plan.dropAfter?.[connection];
  const stallAt = connection === 0 ? plan.stallAfter : undefined;
  let malformedAt = connection === 0 ? plan.malformedAfter : undefined;
  let unknownAt = plan.unknownFrameAfter;
  return {
    raw,
    keepOpen: plan.keepOpen,
    omitDone: plan.omitDone,
    async checkpoint(written: number, io: ConnectionIo): Promise<boolean> {
      for (;;) {
        if (io.closed.aborted) return false;
        if (dropAt !== undefined && written >= dropAt) {
          io.cut();
          return false;
        }
        if (stallAt !== undefined && written >= stallAt) {
          // Nothing of the connection's own either (a session's pings, a stream's heartbeat): only the knob's keepalives.
          io.stall();
          const keepalive = plan.keepaliveMs ? setInterval(() => io.comment('keepalive'), plan.keepaliveMs) : undefined;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, STALL_LIMIT_MS);
            io.closed.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
          clearInterval(keepalive);
          io.cut();
          return false;
        }
        if (malformedAt !== undefined && written >= malformedAt) {
          malformedAt = undefined;
          await io.write('{"type":"event","seq":');
          written += 1;
          continue;
        }
        if (unknownAt !== undefined && written >= unknownAt) {
          unknownAt = undefined;
          await io.write(JSON.stringify({ type: 'progress', data: { stage: 'retrieving' } }));
          written += 1;
          continue;
        }
        return true;
      }
    },
  };
}
