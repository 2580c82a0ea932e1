import { ApiError, errorFromException, protocolError } from './errors.js';
import { isObject } from './types.js';
import { stripAgentId, withSignal, type HttpContext } from './http.js';
import { countdown } from './countdown.js';
import { errorFromFrame, parseFrame, type DataFrame } from './sse.js';
import { NOT_TAKEN, streamTurn, type Connect, type StreamHandlers, type StreamOptions, type StreamResult } from './stream.js';
import type { ErrorFrame, SendMessageBody } from './types.js';

/** The WebSocket session of the service (docs/protocol.md "WebSocket session", provisional). */
export const SESSION_PATH = '/messaging/v1/session';

/** `{base_url as ws(s)}/messaging/v1/session`; a relative base resolves against the page. */
export function sessionUrl(baseUrl: string): string {
  const url = new URL(baseUrl + SESSION_PATH, globalThis.location?.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

const DATA_TYPES = ['thread', 'event', 'message'];

/**
 * One turn over the WebSocket session: the resume loop of `streamTurn` (same handlers,
 * options, result and rules as SSE) over `socketConnection`.
 */
export function streamOverSocket(
  ctx: HttpContext,
  body: SendMessageBody,
  handlers: StreamHandlers,
  opts: StreamOptions = {},
): Promise<StreamResult> {
  return streamTurn(ctx, body, handlers, opts, socketConnection(ctx, body, opts));
}

/**
 * One socket per connection of a turn: open, `auth`, wait for `ready`, send the turn (or
 * `resume` with the learned thread id and the last seq, 0 when none arrived yet), read
 * frames until `done`, close. A 401 gets one fresh token, not counted as a retry.
 *
 * Errors: `auth` (401 on `auth`), `http` (a `message`/`resume` refused before its `thread`
 * frame, e.g. 422 with details, as the SSE POST would be), `stream` (an `error` frame
 * mid-turn), `protocol`, `abort`; drops (`network`, `timeout`, a close before `done`) go
 * back to the loop.
 */
export function socketConnection(ctx: HttpContext, body: SendMessageBody, opts: StreamOptions): Connect {
  const { idleTimeoutMs = 30_000 } = opts;
  const connectTimeoutMs = opts.timeoutMs ?? ctx.timeoutMs;
  const url = sessionUrl(ctx.baseUrl);
  const turnBody = stripAgentId(body);
  let refreshed = false;

  const connect: Connect = async (progress, signal) => {
    let token: string | null = null;
    try {
      token = await withSignal(ctx.tokens.get(), signal);
      return await new Promise<ApiError | null>((resolve, reject) => {
        const ws = new WebSocket(url);
        let opened = false;
        let ready = false;
        let threadSeen = false;
        // Until `ready` `connectTimeoutMs`, then `idleTimeoutMs` after every frame.
        let lastSign = performance.now();
        let wait = connectTimeoutMs;
        const watch = countdown(
          () => lastSign + wait,
          () => drop(new ApiError({ kind: 'timeout', message: 'The service took too long to answer.' })),
        );
        const finish = (settle: () => void): void => {
          watch.stop();
          signal.removeEventListener('abort', onAbort);
          ws.onopen = ws.onmessage = ws.onclose = null;
          if (ws.readyState < 2) ws.close(1000);
          settle();
        };
        const fail = (e: unknown): void => finish(() => reject(e));
        const drop = (e: ApiError): void => finish(() => resolve(e));
        const onAbort = (): void => fail(signal.reason);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });

        ws.onopen = () => {
          opened = true;
          ws.send(JSON.stringify({ type: 'auth', token: token ?? '' }));
        };
        ws.onclose = (ev) => {
          if (!opened) return drop(new ApiError({ kind: 'network', message: 'Could not reach the service. Check your connection.' }));
          // 4xxx close codes are 4000 + an HTTP status (4401: auth refused, 4408: auth timed out).
          const status = ev.code >= 4000 && ev.code < 5000 ? ev.code - 4000 : ev.code === 1009 ? 413 : null;
          if (status === 401) return fail(new ApiError({ kind: 'auth', status, message: 'The service refused the credentials.' }));
          const closed = new ApiError({ kind: 'http', status, message: `The service closed the session (${ev.code}).` });
          if (status !== null && !NOT_TAKEN.includes(status)) return fail(closed);
          // "Not taken" (4408, 4429, 4503) is an answer, as the HTTP status would be; any
          // other close is a drop.
          drop(status !== null ? closed : new ApiError({ kind: 'stream', message: 'The connection closed before the reply was complete.' }));
        };
        ws.onmessage = (ev) => {
          try {
            if (typeof ev.data !== 'string') throw protocolError('The service sent a binary frame.');
            const frame = parseFrame(ev.data);
            lastSign = performance.now();
            if (wait !== idleTimeoutMs) {
              wait = idleTimeoutMs;
              watch.restart();
            }
            switch (frame.type) {
              case 'ready':
                if (ready) return;
                ready = true;
                progress.sent = !progress.resumable;
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
                progress.onKeepalive?.();
                return;
              case 'error': {
                const e = rejection(frame as ErrorFrame, ready, threadSeen);
                // The service said it did not take the turn: sending it again is safe.
                if (e.kind === 'http' && NOT_TAKEN.includes(e.status ?? 0)) {
                  progress.sent = false;
                  return drop(e);
                }
                throw e;
              }
            }
            if (!DATA_TYPES.includes(frame.type)) return progress.unknown(frame);
            if (frame.type === 'thread') threadSeen = true;
            progress.apply(frame as DataFrame);
            // The `message` frame is the whole reply: the turn is over, `done` or not.
            if (progress.message) finish(() => resolve(null));
          } catch (e) {
            fail(e);
          }
        };
      });
    } catch (e) {
      if (progress.handlerFailed) throw e;
      const error = errorFromException(e, signal, () => false);
      // One fresh token after a 401, unless the turn already went out on this socket.
      if (error.kind === 'auth' && error.status === 401 && !refreshed && !progress.sent && ctx.tokens.canRefresh) {
        refreshed = true;
        ctx.tokens.invalidate(token);
        return connect(progress, signal);
      }
      throw error;
    }
  };
  return connect;
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
