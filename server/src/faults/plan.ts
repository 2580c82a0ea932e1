import type { KeyLimits } from '../store/limits.js';

/**
 * Fault knobs of the reference server, for tests and demos. They are not part of the
 * service: a test asks `POST /__demo/keys` for a publishable key of its own with a plan
 * attached, so tests running side by side in two browsers never share faults or counters.
 * Every knob counts per key. "Frames" count every SSE frame written on one connection,
 * the `thread` frame included, `[DONE]` excluded.
 */
export interface FaultPlan {
  /** Lifetime in seconds of access tokens minted for this key (default 900). */
  tokenTtl?: number;
  /** Reject the next N requests that carry a bearer token with 401, as if it were revoked. */
  unauthorized?: number;
  /** Reject the next N token exchanges for this key with 401. */
  tokenExchangeFailures?: number;
  /**
   * Fail matching requests before they run: each entry fails the next `times` (default 1)
   * requests whose path contains `path` (default: any messaging path).
   */
  fail?: Array<{
    status: number;
    code?: string;
    times?: number;
    path?: string;
    /** Seconds, sent as `Retry-After`. */
    retryAfter?: number;
    /** Send this raw body (e.g. an HTML proxy page) instead of the error envelope. */
    rawBody?: string;
  }>;
  /**
   * Stream connections in order: connection i is cut after `dropAfter[i]` frames. WebSocket
   * sessions are counted on their own (session.ts): session i is terminated after
   * `dropAfter[i]` turn frames, or right after `auth` (before `ready`) when it is 0.
   */
  dropAfter?: number[];
  /** Milliseconds between streamed frames of a turn (default: the demo's typing pace). */
  paceMs?: number;
  /** Characters per token frame (default: one word per frame). */
  chunkChars?: number;
  /** Stop writing (connection left open) after N frames on the first stream connection. */
  stallAfter?: number;
  /** Write a frame whose data is not JSON after N frames on the first stream connection. */
  malformedAfter?: number;
  /** Write a frame of an unknown `type` after N frames on every stream connection. */
  unknownFrameAfter?: number;
  /** Write an `error` frame after N frames of the turn and end the stream with `[DONE]`. */
  errorFrame?: {
    after: number;
    status?: number;
    /** Which field carries the status: docs/protocol.md "Error frames" lets it be any of three. */
    statusField?: 'status' | 'status_code' | 'code';
    message?: string;
    /** How many streamed turns of this key fail this way (default 1; later turns run normally). */
    times?: number;
  };
  /** Close streams after their last frame without `data: [DONE]`. */
  omitDone?: boolean;
  /** Keep streams open after their last frame, without `data: [DONE]`, until the client leaves. */
  keepOpen?: boolean;
  /** Stream requests get no response at all, not even headers, until the client gives up. The turn still runs. */
  holdStream?: boolean;
  /** While a stream is stalled (`stallAfter`), write an SSE comment every N ms: keepalives and nothing else. */
  keepaliveMs?: number;
  /**
   * The agent thinks this long (ms, at most 120000) before its first word: every connection
   * and socket of the turn sees its `thread` frame, then nothing (a hung agent, a slow tool).
   */
  thinkMs?: number;
  /**
   * Requests that would start a turn (send, stream without `Last-Event-ID`) wait this long (ms)
   * before the service takes them; one whose client goes meanwhile (a reload) leaves nothing
   * behind, as a request lost on its way would.
   */
  intakeDelayMs?: number;
  /**
   * Stream responses (their headers, then the `thread` frame) wait this long (ms) while the
   * turn already runs: the window in which a page that goes has sent its question but not
   * learnt its thread.
   */
  threadFrameDelayMs?: number;
  /**
   * Stream responses carry no CORS headers: a page on another origin may send the request
   * (the preflight is answered) but may not read the answer. The turn still runs.
   */
  streamWithoutCors?: boolean;
  /**
   * Streamed turn i (counted per key) writes `rawTurns[i]` verbatim as its frames' `data:`
   * payloads after its `thread` frame, instead of the agent's frames; then `[DONE]` unless
   * `omitDone`. The turn still runs on the server. Later turns stream normally.
   */
  rawTurns?: string[][];
  /**
   * When a turn's messages join the thread's transcript. `end` (the default, as the hosted
   * service does it): the user's message and the reply together, when the turn ends on the
   * server, whether or not a client is still reading its stream. `start`: the user's message
   * as soon as the turn starts, the reply when it ends.
   */
  transcriptAt?: 'end' | 'start';
  /**
   * Resume requests (SSE `Last-Event-ID`, WebSocket `resume`) answer 409
   * `stream.not_resumable`, as a service that lost the turn's buffer would. The turn still
   * runs and its messages land in the transcript.
   */
  unresumable?: boolean;
  /** WebSocket sessions of this key never answer the client's `{"type":"ping"}` (a dead peer). */
  deafSession?: boolean;
  /** The transcript operation answers with this JSON value, as given. */
  rawTranscript?: unknown;
  /**
   * Replace the demo agent's replies, turn by turn; the last entry repeats. Cards are sent as
   * given. `repeat`: the text that many times over, a reply larger than a plan may carry
   * (the size limits' tests and benchmarks).
   */
  replies?: Array<{ text: string; repeat?: number; cards?: unknown[]; suggestions?: string[] }>;
  /** Replace the welcome message. */
  welcome?: string;
  /** Replace the suggestions of the follow-up suggestions operation. */
  suggestions?: string[];
  /**
   * This key's own limits (limits.ts), each instead of the minted keys' default: a test of
   * the rate limit or of eviction sets small ones, a test of hostile sizes larger ones.
   */
  limits?: Partial<KeyLimits>;
}

/** What `GET /__demo/keys/{key}/stats` reports. */
export interface KeyStats {
  /** Agent turns actually run (a resumed or replayed turn is not run again). */
  turnsRun: number;
  tokensIssued: number;
  streamConnections: number;
  /** WebSocket sessions that got past the upgrade (session.ts); `dropAfter` indexes these for sockets. */
  socketConnections: number;
  /** Requests and turns refused with 429 (the key's rate or running turns). */
  limited: number;
  /** What the key holds now, against `limits` (server/src/store/limits.ts); filled in when the stats are read. */
  usage?: { threads: number; bytes: number; running: number };
  limits?: KeyLimits;
  /** Every request made with this key's tokens (and the exchange itself), in order. */
  requests: Array<{
    method: string;
    path: string;
    lastEventId: string | null;
    body: unknown;
  }>;
}
