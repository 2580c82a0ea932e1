import { ApiError, errorFromException, protocolError } from './errors.js';
import { jsonInit, requestJson, send, sleep, type HttpContext, type RequestOptions } from './http.js';
import { TurnProgress, type StreamHandlers } from './progress.js';
import { countdown } from './countdown.js';
import { frameLimit, readFrames } from './sse.js';
import type { ApiErrorInit } from './errors.js';
import type { Message, SendMessageBody } from './types.js';

export type { StreamHandlers } from './progress.js';

export interface StreamOptions extends RequestOptions {
  /** Resume attempts after a drop (and retries of a retryable failure), default 4. */
  maxRetries?: number;
  /** Base of the exponential backoff with jitter (ms), default 400. Retry-After wins. */
  backoffMs?: number;
  /**
   * A Retry-After longer than this (ms, default 10000) is not waited out silently: the
   * error surfaces with `retryAfterMs`, so the reader learns why and when to try again.
   */
  maxRetryAfterMs?: number;
  /** Nothing at all (no frame, no keepalive) on one connection for this long is a drop (ms), default 30000. */
  idleTimeoutMs?: number;
  /**
   * No new frame and no keepalive comment for this long, across every connection of the
   * turn, ends the turn with a `timeout` error (ms), default 60000. What proves only a
   * connection (response headers, a replayed frame, a socket's ping or pong) does not count.
   */
  stallTimeoutMs?: number;
  /**
   * Keepalives alone hold a turn open for at most this long after its last frame (ms),
   * default 300000: an agent may think for minutes (tool calls), but a service that only
   * ever says it is alive is not answering.
   */
  keepaliveLimitMs?: number;
  /**
   * Resume a turn this page did not start (it ran before a reload, or in another tab): its
   * thread and the last seq already shown. The body is the turn's own; nothing is sent
   * again, the service replays what came after `lastSeq` (docs/protocol.md "Stream resume").
   * A thread not known (the page went before the `thread` frame) is found by the turn's
   * `idempotencyKey` (docs/protocol.md "A send and a reload").
   * What follows counts towards `maxReplyLength` from there.
   */
  resume?: { threadId: string | null; lastSeq: number };
  // `timeoutMs` (inherited) bounds each connection's wait for response headers; default: the client's.
}

/**
 * `message` is the final `message` frame's data. It is null when the stream ended properly
 * with `[DONE]` but carried no `message` frame: the turn is over and the deltas already
 * delivered are all there is, so this is not treated as an error.
 */
export interface StreamResult {
  threadId: string;
  message: Message | null;
}

/**
 * One connection of a turn, by one transport: resolves `null` when the turn is over, or
 * the ApiError of a drop worth another connection; rejects with what is final (an error
 * frame, a refusal, a protocol error, an abort). Sets `progress.sent` once the turn's
 * request (not a resume) has gone out.
 */
export type Connect = (progress: TurnProgress, signal: AbortSignal) => Promise<ApiError | null>;

const MAX_BACKOFF_MS = 10_000;
/** Statuses with which the service says it did not take the request: repeating is safe. */
export const NOT_TAKEN = [408, 429, 503];

/** Exponential backoff with jitter for retry `attempt` (1-based); Retry-After wins when given. */
export function backoffDelay(attempt: number, baseMs: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return retryAfterMs;
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function dropError(init: Partial<ApiErrorInit> = {}): ApiError {
  return new ApiError({
    kind: 'stream',
    message: 'The connection closed before the reply was complete.',
    ...init,
  });
}

/**
 * Whether the service answers at all (the welcome message, within 5 s). A request that
 * failed without an answer may still have reached the service (a reply the page may not
 * read, a connection cut after sending); if the service answers this, it most likely did.
 */
async function reachable(ctx: HttpContext, signal: AbortSignal): Promise<boolean> {
  try {
    await requestJson(ctx, 'GET', '/messaging/v1/welcome-message', undefined, (v) => v, 'a welcome message', { signal, timeoutMs: 5_000 });
    return true;
  } catch (e) {
    const error = errorFromException(e, signal, () => false);
    if (error.kind === 'abort') throw error;
    return error.kind !== 'network' && error.kind !== 'timeout';
  }
}

/**
 * One turn with resume, whatever the transport (SSE here, the WebSocket session in
 * websocket.ts): docs/protocol.md "Stream resume". After a drop the turn is resumed from the
 * last seq once the service has named its thread; before that, the request is repeated
 * only when it cannot have started the turn: it never went out, the service refused it
 * with 408/429/503, or the service cannot be reached at all. A POST that may have reached
 * the service (a 500, an answer the page may not read, silence after sending) is not sent
 * again: the turn fails and the caller keeps the text.
 *
 * A `message` frame is the whole reply: a stream that closes after it without `[DONE]`
 * still completed the turn. No new frame for `stallTimeoutMs` ends the turn (`timeout`);
 * the caller's signal ends it at any moment (`abort`).
 */
export async function streamTurn(
  ctx: HttpContext,
  body: SendMessageBody,
  handlers: StreamHandlers,
  opts: StreamOptions = {},
  connect: Connect = sseConnection(ctx, body, opts),
): Promise<StreamResult> {
  const {
    signal: caller,
    maxRetries = 4,
    backoffMs = 400,
    maxRetryAfterMs = 10_000,
    stallTimeoutMs = 60_000,
    keepaliveLimitMs = 300_000,
  } = opts;
  const progress = new TurnProgress(body.thread_id, handlers, ctx.maxReply);
  if (opts.resume) progress.resumeAt(opts.resume.threadId, opts.resume.lastSeq);
  const stall = new AbortController();
  // The stall deadline: a frame pushes it back, a keepalive too, but only up to its limit.
  let lastFrame = performance.now();
  let lastSign = lastFrame;
  progress.onProgress = () => (lastFrame = lastSign = performance.now());
  progress.onKeepalive = () => (lastSign = performance.now());
  const stallWatch = countdown(
    () => Math.min(lastSign + stallTimeoutMs, lastFrame + keepaliveLimitMs),
    () => stall.abort(new DOMException('The reply stalled.', 'TimeoutError')),
  );
  const signal = caller ? AbortSignal.any([caller, stall.signal]) : stall.signal;
  // Stop means stop: frames already read in the same chunk are not handed on either.
  signal.addEventListener('abort', () => (progress.stopped = true), { once: true });
  /** Classifies what ended the turn: the caller (abort), the stall watch (timeout), or `e`. */
  const final = (e: unknown): ApiError =>
    stall.signal.aborted && !caller?.aborted
      ? new ApiError({ kind: 'timeout', message: 'The reply stopped arriving.', cause: e })
      : errorFromException(e, caller, () => false);

  try {
    for (let attempt = 0; ; attempt++) {
      let error: ApiError | null;
      progress.sent = false;
      try {
        error = await connect(progress, signal);
      } catch (e) {
        if (progress.handlerFailed) throw e;
        throw final(e);
      }
      if (!error || progress.message || progress.truncated) {
        if (!progress.threadId) throw protocolError('The stream ended without naming its thread.');
        return { threadId: progress.threadId, message: progress.message };
      }
      if (progress.sent && !progress.resumable) {
        // The turn may be running. An answer other than "not taken" is final; no answer is
        // final too unless the service cannot be reached at all (then neither could the turn).
        if (error.kind === 'http') {
          if (!NOT_TAKEN.includes(error.status ?? 0)) throw error;
        } else if (await reachable(ctx, signal).catch((e: unknown) => Promise.reject(final(e)))) {
          throw new ApiError({
            kind: error.kind,
            message: 'The service may have received the message, but its reply could not be read.',
            retryable: false,
            mayHaveRun: true,
            cause: error,
          });
        }
      }
      if (attempt >= maxRetries) throw error;
      if (error.retryAfterMs !== null && error.retryAfterMs > maxRetryAfterMs) throw error;
      handlers.onReconnecting?.(attempt + 1, error);
      try {
        const delay = backoffDelay(attempt + 1, backoffMs, error.retryAfterMs);
        // Even a 0 ms timer waits ~1 s in a throttled background tab; skip it when not needed.
        if (delay > 0) await sleep(delay, signal);
        else if (signal.aborted) throw signal.reason;
      } catch (e) {
        throw final(e);
      }
    }
  } finally {
    stallWatch.stop();
    progress.onProgress = progress.onKeepalive = null;
  }
}

/**
 * A stream whose frames all arrived at once, its first one (the `thread` frame, which a
 * service sends as the turn starts) with its last and at least three deltas, WAITED_MS or
 * more after the request: it was held back on the way, typically by a proxy or CDN that
 * buffers responses (docs/deploy.md). A fast model after a long think still sends its
 * first frame early. Said once a page, at the console's debug level; the reply shows whole
 * all the same.
 */
const BURST_MS = 50;
const WAITED_MS = 1_000;
let bufferingNoted = false;

/**
 * SSE: one POST to the stream operation per connection, resumed with the learned
 * `thread_id` and `Last-Event-ID: <last seq>` (0 when no sequenced frame arrived yet).
 */
function sseConnection(ctx: HttpContext, body: SendMessageBody, opts: StreamOptions): Connect {
  const { idleTimeoutMs = 30_000 } = opts;
  const connectTimeoutMs = opts.timeoutMs ?? ctx.timeoutMs;
  return async (progress, turn) => {
    const ctrl = new AbortController();
    let idle = false;
    // Until the response headers arrive `connectTimeoutMs`, then `idleTimeoutMs` after any sign of life.
    let lastSign = performance.now();
    let wait = connectTimeoutMs;
    const watch = countdown(
      () => lastSign + wait,
      () => {
        idle = true;
        ctrl.abort(new DOMException('Stream timed out', 'TimeoutError'));
      },
    );
    const signal = AbortSignal.any([turn, ctrl.signal]);
    const asked = performance.now();
    let deltas = 0;
    let firstFrame = 0;
    try {
      const resume = progress.resumable;
      const threadId = resume && progress.threadId;
      const init = jsonInit('POST', threadId ? { ...body, thread_id: threadId } : body, opts.idempotencyKey);
      const headers = init.headers as Record<string, string>;
      headers.accept = 'text/event-stream';
      if (resume) headers['last-event-id'] = String(progress.lastSeq);
      const res = await send(ctx, '/messaging/v1/messages/stream', init, signal, () => (progress.sent ||= !resume));
      if (!res.body || !/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
        throw protocolError('The service did not answer with an event stream.');
      }
      wait = idleTimeoutMs;
      lastSign = performance.now();
      watch.restart();
      const outcome = await readFrames(
        res.body,
        {
          // Any byte proves the connection; only a keepalive comment (or a new frame, through
          // `progress`) holds the turn: a replayed `thread` frame on a resume does not.
          onActivity: () => (lastSign = performance.now()),
          onKeepalive: () => progress.onKeepalive?.(),
          onUnknownFrame: (f) => progress.unknown(f),
          // The `message` frame is the whole reply, and a cut one is all that is read: the
          // turn is over, whatever follows.
          onFrame: (frame) => {
            firstFrame ||= performance.now();
            if (frame.type === 'event') deltas++;
            progress.apply(frame);
            return !!progress.message || progress.truncated;
          },
          onTooLarge: () => progress.tooLarge(),
        },
        frameLimit(ctx.maxReply),
      );
      // A resume replays what it missed at once, by design: only a first request tells.
      if (
        outcome === 'done' &&
        !resume &&
        !bufferingNoted &&
        deltas > 2 &&
        performance.now() - firstFrame < BURST_MS &&
        firstFrame - asked > WAITED_MS
      ) {
        bufferingNoted = true;
        console.debug(
          '<agent-chat>: the reply arrived all at once: something between the page and the service (a proxy, a CDN) buffers the stream.',
        );
      }
      return outcome === 'done' ? null : dropError();
    } catch (e) {
      if (progress.handlerFailed) throw e;
      const error = errorFromException(e, turn, () => idle);
      // A thrown `stream` error is an error frame: the turn failed, resuming replays the
      // failure. Protocol, auth and 4xx failures would only repeat; aborts are final.
      if (error.kind === 'stream' || !error.retryable) throw error;
      return error;
    } finally {
      watch.stop();
      ctrl.abort();
    }
  };
}
