import { ApiError, errorFromException, protocolError } from './errors.js';
import { jsonInit, send, sleep, type HttpContext, type RequestOptions } from './http.js';
import { TurnProgress } from './progress.js';
import { readFrames } from './sse.js';
import type { ApiErrorInit } from './errors.js';
import type { Message, SendMessageBody, UnknownFrame } from './types.js';

export interface StreamHandlers {
  /** The thread the turn runs on; called once per distinct id (the frame is replayed on resume). */
  onThread?(threadId: string): void;
  /** A token delta, in order, never repeated across resumes. */
  onToken?(text: string, seq: number): void;
  /** The complete agent reply. */
  onMessage?(message: Message, seq: number): void;
  /** The connection dropped; resume attempt `attempt` (1-based) follows after a backoff. */
  onReconnecting?(attempt: number, error: ApiError): void;
  /** A frame of a type this client does not know (tolerated, otherwise skipped). */
  onUnknownFrame?(frame: UnknownFrame): void;
}

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
  /** No frame or keepalive for this long counts as a drop (ms), default 45000. */
  idleTimeoutMs?: number;
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

const MAX_BACKOFF_MS = 10_000;

/**
 * A request that failed before the service named its thread may or may not have started a
 * turn. Repeating it is safe only when the service said it did not take it (408, 429, 503)
 * or the connection never carried an answer; a 500, 502 or 504 may have run the turn, and
 * a second POST would run it again.
 */
function safeToRepeat(error: ApiError): boolean {
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.status === 408 || error.status === 429 || error.status === 503;
}

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
 * One streamed turn with resume (CONTRACT.md "Stream resume"): when a connection drops
 * before `[DONE]`, the same body is sent again with the `thread_id` learned from the
 * `thread` frame and `Last-Event-ID: <last seq>` (0 when no sequenced frame arrived yet);
 * the server replays what was missed without running the turn again. Before any `thread`
 * frame, the turn may not exist yet, so the request is simply repeated.
 */
export async function streamTurn(
  ctx: HttpContext,
  body: SendMessageBody,
  handlers: StreamHandlers,
  opts: StreamOptions = {},
): Promise<StreamResult> {
  const { signal: caller, maxRetries = 4, backoffMs = 400, idleTimeoutMs = 45_000, maxRetryAfterMs = 10_000 } = opts;
  const connectTimeoutMs = opts.timeoutMs ?? ctx.timeoutMs;
  const progress = new TurnProgress(body.thread_id, handlers);

  for (let attempt = 0; ; attempt++) {
    const ctrl = new AbortController();
    let idle = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** (Re)starts the countdown after which this connection counts as dropped. */
    const arm = (ms = idleTimeoutMs): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        ctrl.abort(new DOMException('Stream timed out', 'TimeoutError'));
      }, ms);
    };
    const signal = caller ? AbortSignal.any([caller, ctrl.signal]) : ctrl.signal;
    let error: ApiError;
    try {
      const init = jsonInit('POST', progress.resumable ? { ...body, thread_id: progress.threadId } : body);
      const headers = init.headers as Record<string, string>;
      headers.accept = 'text/event-stream';
      if (progress.resumable) headers['last-event-id'] = String(progress.lastSeq);
      arm(connectTimeoutMs); // until the response headers arrive
      const res = await send(ctx, '/messaging/v1/messages/stream', init, signal);
      if (!res.body || !/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
        throw protocolError('The service did not answer with an event stream.');
      }
      arm();
      const outcome = await readFrames(res.body, {
        onActivity: () => arm(),
        onUnknownFrame: (f) => progress.unknown(f),
        onFrame: (frame) => progress.apply(frame),
      });
      if (outcome === 'done') {
        if (!progress.threadId) throw protocolError('The stream ended without naming its thread.');
        return { threadId: progress.threadId, message: progress.message };
      }
      error = dropError();
    } catch (e) {
      if (progress.handlerFailed) throw e;
      error = errorFromException(e, caller, () => idle);
      // A thrown `stream` error is an error frame: the turn failed, resuming replays the
      // failure. Protocol, auth and 4xx failures would only repeat; aborts are final.
      if (error.kind === 'stream' || !error.retryable) throw error;
      if (!progress.resumable && !safeToRepeat(error)) throw error;
    } finally {
      clearTimeout(timer);
      ctrl.abort();
    }
    if (attempt >= maxRetries) throw error;
    if (error.retryAfterMs !== null && error.retryAfterMs > maxRetryAfterMs) throw error;
    handlers.onReconnecting?.(attempt + 1, error);
    try {
      const delay = backoffDelay(attempt + 1, backoffMs, error.retryAfterMs);
      // Even a 0 ms timer waits ~1 s in a throttled background tab; skip it when not needed.
      if (delay > 0) await sleep(delay, caller);
      else if (caller?.aborted) throw caller.reason;
    } catch (e) {
      throw errorFromException(e, caller, () => false);
    }
  }
}
