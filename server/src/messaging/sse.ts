import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ThreadFrame } from '@agent-chat/wire';
import type { FollowableTurn } from './turn.js';

/**
 * What a connection may do besides writing a turn's frames: the seam the fault knobs use in
 * tests (faults/connections.ts) to cut, stall or garble a connection, as a proxy or a
 * network would, while the turn itself carries on. A server without them writes every
 * frame (`PLAIN`).
 */
export interface ConnectionTap {
  /**
   * Called before the first frame and after each one written ("frames" count the `thread`
   * frame, not `[DONE]`): whether to go on writing. It may write frames of its own first.
   */
  checkpoint(written: number, io: ConnectionIo): Promise<boolean>;
  /** Written after the `thread` frame instead of the turn's frames, verbatim. */
  readonly raw?: readonly string[];
  /** After the last frame, hold the connection open until the client leaves. */
  readonly keepOpen?: boolean;
  /** End without `[DONE]`. */
  readonly omitDone?: boolean;
}

export interface ConnectionIo {
  /** Writes a frame's data (counted as one). */
  write(data: string): Promise<void>;
  /** Writes an SSE comment (a keepalive; not counted). */
  comment(text: string): void;
  /** Drops the connection without a goodbye (a WebSocket's terminate; a stream just stops). */
  cut(): void;
  /** The connection stops writing anything of its own meanwhile (a session's keepalive pings): it is stalled. */
  stall(): void;
  /** Aborted when the client goes. */
  readonly closed: AbortSignal;
}

/** Every frame, then `[DONE]`. */
export const PLAIN: ConnectionTap = { checkpoint: async () => true };

/**
 * A stream that has written nothing for this long gets a comment (`: keepalive`), which
 * clients ignore: proxies and load balancers that close a quiet connection (nginx after 60 s,
 * many after 30 s) keep it while an agent thinks.
 */
export const HEARTBEAT_MS = 15_000;

/**
 * Writes one connection's view of a turn: the `thread` frame, the buffered frames after
 * `after`, then live frames until the turn ends, then `[DONE]`; a comment after each
 * `heartbeatMs` of silence. The turn itself never notices what happens to a connection.
 */
export function streamTurn(
  c: Context,
  turn: FollowableTurn,
  after: number,
  tap: ConnectionTap = PLAIN,
  heartbeatMs = HEARTBEAT_MS,
): Response {
  // Nothing between the server and the reader may hold frames back or rewrite them (nginx,
  // a CDN's compression): each goes out as it is written.
  c.header('X-Accel-Buffering', 'no');
  const res = streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => gone.abort());
    let written = 0;
    let stalled = false;
    let beat: ReturnType<typeof setTimeout> | undefined;
    const quiet = () => {
      clearTimeout(beat);
      if (stalled || gone.signal.aborted) return;
      beat = setTimeout(() => {
        void stream.write(': keepalive\n\n').catch(() => {});
        quiet();
      }, heartbeatMs);
    };
    gone.signal.addEventListener('abort', () => clearTimeout(beat), { once: true });
    const io: ConnectionIo = {
      write: async (data) => {
        await stream.writeSSE({ data });
        written += 1;
        quiet();
      },
      comment: (text) => void stream.write(`: ${text}\n\n`),
      cut: () => gone.abort(),
      stall: () => {
        stalled = true;
        clearTimeout(beat);
      },
      closed: gone.signal,
    };
    const go = () => (gone.signal.aborted ? Promise.resolve(false) : tap.checkpoint(written, io));

    const send = async (data: string, id?: number): Promise<boolean> => {
      await stream.writeSSE(id === undefined ? { data } : { data, id: String(id) });
      written += 1;
      quiet();
      return (await go()) && !gone.signal.aborted;
    };

    try {
      quiet();
      if (!(await go())) return;
      const threadFrame: ThreadFrame = { type: 'thread', data: { thread_id: turn.threadId } };
      if (!(await send(JSON.stringify(threadFrame)))) return;
      if (tap.raw) {
        for (const data of tap.raw) if (!(await send(data))) return;
      } else {
        for await (const { frame } of turn.follow(after, gone.signal)) {
          if (!(await send(JSON.stringify(frame), frame.seq))) return;
        }
      }
      if (tap.keepOpen) await new Promise<void>((resolve) => gone.signal.addEventListener('abort', () => resolve(), { once: true }));
      if (gone.signal.aborted || tap.omitDone) return;
      await stream.writeSSE({ data: '[DONE]' });
    } finally {
      clearTimeout(beat);
    }
  });
  // After streamSSE's own `no-cache`, which the response's headers are merged from.
  c.header('Cache-Control', 'no-cache, no-transform');
  res.headers.set('Cache-Control', 'no-cache, no-transform');
  // And without its `Transfer-Encoding: chunked` and `Connection: keep-alive`: how a response
  // is framed and whether its connection stays are Node's to say, by the request's HTTP
  // version. Chunks sent to an HTTP/1.0 client (nginx by default) are not HTTP/1.0.
  for (const name of ['Transfer-Encoding', 'Connection']) {
    c.header(name, undefined);
    res.headers.delete(name);
  }
  return res;
}
