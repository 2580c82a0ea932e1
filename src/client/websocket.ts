import { ApiError, errorFromException, isObject, protocolError } from './errors.js';
import { sleep, stripAgentId, withSignal, type HttpContext } from './http.js';
import { TurnProgress } from './progress.js';
import { errorFromFrame, parseFrame, type DataFrame } from './sse.js';
import { backoffDelay, type StreamHandlers, type StreamOptions, type StreamResult } from './stream.js';
import type { ErrorFrame, SendMessageBody } from './types.js';

/** The WebSocket session of the service (CONTRACT.md, provisional). */
export const SESSION_PATH = '/messaging/v1/session';

/** `{base_url as ws(s)}/messaging/v1/session`; a relative base resolves against the page. */
export function sessionUrl(baseUrl: string): string {
  const url = new URL(baseUrl + SESSION_PATH, globalThis.location?.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** What one socket ended with: `null` after `done`, else a drop worth resuming. */
type SocketOutcome = ApiError | null;

const SAFE_REJECTIONS = [408, 429, 503];
const DATA_TYPES = ['thread', 'event', 'message'];

/**
 * One turn over the WebSocket session, with the same handlers, options, result and resume
 * rules as `streamTurn` (SSE). One socket per turn: open, `auth`, wait for `ready`, send the
 * turn, read frames until `done`, close. When the socket drops (or goes idle) before `done`,
 * a new one is opened after a backoff and sends `resume` with the learned thread id and the
 * last seq (0 when none arrived yet); before any `thread` frame the turn is sent again only
 * if it never went out on the lost socket, since once sent it may be running. Frames whose
 * seq is not above the last one seen are ignored. A 401 gets one fresh token.
 *
 * Errors: `auth` (401 on `auth`), `http` (a `message`/`resume` refused before its `thread`
 * frame, e.g. 422 with details, as the SSE POST would be), `stream` (an `error` frame
 * mid-turn, or drops beyond `maxRetries`), `network`, `timeout`, `abort`, `protocol`.
 */
export async function streamOverSocket(
  ctx: HttpContext,
  body: SendMessageBody,
  handlers: StreamHandlers,
  opts: StreamOptions = {},
): Promise<StreamResult> {
  const { signal: caller, maxRetries = 4, backoffMs = 400, idleTimeoutMs = 45_000 } = opts;
  const connectTimeoutMs = opts.timeoutMs ?? ctx.timeoutMs;
  const url = sessionUrl(ctx.baseUrl);
  const turnBody = stripAgentId(body);
  const progress = new TurnProgress(body.thread_id, handlers);
  let refreshed = false;

  for (let attempt = 0; ; ) {
    /** The turn (not a resume) went out on this socket: from then on it may be running. */
    let sent = false;
    let token: string | null = null;
    let outcome: SocketOutcome;
    try {
      token = await withSignal(ctx.tokens.get(), caller);
      outcome = await new Promise<SocketOutcome>((resolve, reject) => {
        const ws = new WebSocket(url);
        let opened = false;
        let ready = false;
        let threadSeen = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (settle: () => void): void => {
          clearTimeout(timer);
          caller?.removeEventListener('abort', onAbort);
          ws.onopen = ws.onmessage = ws.onclose = null;
          if (ws.readyState < 2) ws.close(1000);
          settle();
        };
        const fail = (e: unknown): void => finish(() => reject(e));
        const drop = (e: ApiError): void => finish(() => resolve(e));
        const arm = (ms: number): void => {
          clearTimeout(timer);
          timer = setTimeout(() => drop(new ApiError({ kind: 'timeout', message: 'The service took too long to answer.' })), ms);
        };
        const onAbort = (): void => fail(errorFromException(caller?.reason, caller, () => false));
        if (caller?.aborted) return onAbort();
        caller?.addEventListener('abort', onAbort, { once: true });
        arm(connectTimeoutMs); // until `ready`

        ws.onopen = () => {
          opened = true;
          ws.send(JSON.stringify({ type: 'auth', token: token ?? '' }));
        };
        ws.onclose = (ev) => {
          if (!opened) return drop(new ApiError({ kind: 'network', message: 'Could not reach the service. Check your connection.' }));
          // 4xxx close codes are 4000 + an HTTP status (4401: auth refused, 4408: auth timed out).
          const status = ev.code >= 4000 && ev.code < 5000 ? ev.code - 4000 : ev.code === 1009 ? 413 : null;
          if (status === 401) return fail(new ApiError({ kind: 'auth', status, message: 'The service refused the credentials.' }));
          if (status !== null && !SAFE_REJECTIONS.includes(status)) {
            return fail(new ApiError({ kind: 'http', status, message: `The service closed the session (${ev.code}).` }));
          }
          drop(new ApiError({ kind: 'stream', status, message: 'The connection closed before the reply was complete.' }));
        };
        ws.onmessage = (ev) => {
          try {
            if (typeof ev.data !== 'string') throw protocolError('The service sent a binary frame.');
            const frame = parseFrame(ev.data);
            arm(idleTimeoutMs);
            switch (frame.type) {
              case 'ready':
                if (ready) return;
                ready = true;
                sent = !progress.resumable;
                ws.send(
                  JSON.stringify(
                    progress.resumable
                      ? { type: 'resume', thread_id: progress.threadId, last_event_id: progress.lastSeq }
                      : { type: 'message', data: turnBody },
                  ),
                );
                return;
              case 'done':
                return finish(() => resolve(null));
              case 'ping':
              case 'pong':
                return;
              case 'error': {
                const e = rejection(frame as ErrorFrame, ready, threadSeen);
                // The service said it did not take the turn: sending it again is safe.
                if (e.kind === 'http' && SAFE_REJECTIONS.includes(e.status ?? 0)) {
                  sent = false;
                  return drop(e);
                }
                throw e;
              }
            }
            if (!DATA_TYPES.includes(frame.type)) return progress.unknown(frame);
            if (frame.type === 'thread') threadSeen = true;
            progress.apply(frame as DataFrame);
          } catch (e) {
            fail(e);
          }
        };
      });
    } catch (e) {
      if (progress.handlerFailed) throw e;
      const error = errorFromException(e, caller, () => false);
      // One fresh token after a 401, as for HTTP requests; not counted as a retry.
      if (error.kind === 'auth' && error.status === 401 && !refreshed && ctx.tokens.canRefresh) {
        refreshed = true;
        ctx.tokens.invalidate(token);
        continue;
      }
      throw error;
    }
    if (!outcome) {
      if (!progress.threadId) throw protocolError('The session ended the turn without naming its thread.');
      return { threadId: progress.threadId, message: progress.message };
    }
    // Sent but never named: the turn may be running, and sending it again could run it twice.
    if ((sent && !progress.resumable) || attempt >= maxRetries) throw outcome;
    attempt += 1;
    handlers.onReconnecting?.(attempt, outcome);
    try {
      const delay = backoffDelay(attempt, backoffMs, outcome.retryAfterMs);
      if (delay > 0) await sleep(delay, caller);
      else if (caller?.aborted) throw caller.reason;
    } catch (e) {
      throw errorFromException(e, caller, () => false);
    }
  }
}

/**
 * The ApiError of an `error` frame: `auth` before `ready`, `http` (with the envelope's
 * details) when a `message`/`resume` was refused before its `thread` frame, else `stream`.
 */
function rejection(frame: ErrorFrame, ready: boolean, threadSeen: boolean): ApiError {
  const e = errorFromFrame(frame);
  if (threadSeen) return e;
  const details = Array.isArray(frame.data.details) ? frame.data.details.filter(isObject) : [];
  return new ApiError({
    kind: ready ? 'http' : 'auth',
    status: e.status,
    code: e.code === 'stream' ? undefined : e.code,
    message: e.message,
    requestId: e.requestId,
    details: details.map((d) => ({
      message: typeof d.message === 'string' ? d.message : '',
      field: typeof d.field === 'string' ? d.field : null,
    })),
  });
}
