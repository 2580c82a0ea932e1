import type { Context } from 'hono';
import type { ApiError } from '../http/errors.js';
import type { KeyRecord } from '../store/records.js';
import { PLAIN, type ConnectionTap } from './sse.js';

/**
 * The seams of a connection (an SSE stream, a WebSocket session): what the fault knobs use
 * in tests (faults/) to misbehave as a network, a proxy or a revoked token would. A server
 * without them writes every frame and refuses nothing of its own (`PLAIN_TAPS`).
 */
export interface Taps {
  /** A stream request's connection, once its turn is found or started (`resuming`: a `Last-Event-ID` came). */
  stream(c: Context, key: KeyRecord, resuming: boolean): ConnectionTap;
  /** A WebSocket session, once its `auth` frame is checked. */
  session(key: KeyRecord): SessionTap;
}

export interface SessionTap {
  /** A refusal instead of `ready` (close 4401). */
  refusal?: ApiError;
  /** Cut the socket right after `auth`, before `ready`: the client knows no turn was sent. */
  dropBeforeReady?: boolean;
  /** The socket's turn frames, counted across its turns. */
  connection: ConnectionTap;
  /** A `message` or `resume` frame as it arrives (`lastEventId`: a resume's): an answer to send instead of taking it. */
  frame?(type: 'message' | 'resume', frame: unknown, lastEventId: string | null): ApiError | undefined;
  /** Whether a client's `ping` gets its `pong`. */
  answersPing: boolean;
}

export const PLAIN_SESSION: SessionTap = { connection: PLAIN, answersPing: true };

export const PLAIN_TAPS: Taps = { stream: () => PLAIN, session: () => PLAIN_SESSION };
