import { ApiError, errorFromException, protocolError } from './errors.js';
import { isObject } from './types.js';
import { stripAgentId, withSignal, type HttpContext } from './http.js';
import { countdown } from './countdown.js';
import { MAX_FRAME, errorFromFrame, frameLimit, parseFrame, type DataFrame } from './sse.js';
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

/** Session timings (ms); tests shorten them. */
export interface SessionTimings {
  /** An open session with no turn closes after this long. */
  idleMs: number;
  /** A quiet open session sends `{"type":"ping"}` this often... */
  heartbeatMs: number;
  /** ...and is dropped when nothing at all arrives for this long after a ping. */
  pongWaitMs: number;
}

export const SESSION_TIMINGS: SessionTimings = { idleMs: 60_000, heartbeatMs: 20_000, pongWaitMs: 10_000 };

/** What the session hands a turn: its frames, the socket's end, and keepalives. */
interface TurnListener {
  frame(frame: ReturnType<typeof parseFrame>): void;
  /** A frame that is not what the protocol says (a protocol ApiError). */
  invalid(error: unknown): void;
  /** A frame too large to read (it was not parsed): true when the listener ends its turn there, as cut. */
  tooLarge(): boolean;
  closed(event: CloseEvent | null, opened: boolean): void;
  alive(): void;
}

/**
 * The WebSocket session of one client (docs/protocol.md "WebSocket session"): one socket,
 * opened when a turn needs it, authenticated once, reused by the turns that follow, kept
 * alive with a heartbeat, closed when idle. A socket that drops is replaced by the next
 * connection of a turn (the resume loop waits with backoff and resumes by `seq`).
 */
export class SocketSession {
  private __ws: WebSocket | null = null;
  /** Settles once the socket said `ready` (rejects if it closed first). */
  private __ready: Promise<void> | null = null;
  private __listener: TurnListener | null = null;
  /** The turn on the socket has not said `done` yet: the next one waits (one turn at a time). */
  private __busy: Promise<void> = Promise.resolve();
  private __settleBusy: (() => void) | null = null;
  private __idle: ReturnType<typeof setTimeout> | undefined;
  private __heartbeat: ReturnType<typeof setInterval> | undefined;
  private __lastFrame = 0;

  constructor(
    private readonly __url: string,
    readonly timings: SessionTimings = SESSION_TIMINGS,
    /** The longest frame read, in characters (sse.ts `frameLimit`). */
    private readonly __maxFrame = MAX_FRAME,
  ) {}

  /** Sockets opened so far (reuse is visible in tests). */
  opened = 0;

  /**
   * An authenticated socket for a turn: the open one once its previous turn is `done`, else
   * a new one. Rejects with a drop (`network`, `timeout`, a close before `ready`) or with
   * what is final (`auth`).
   */
  async open(token: string, signal: AbortSignal, timeoutMs: number, listener: TurnListener): Promise<WebSocket> {
    await withSignal(this.__busy, signal);
    clearTimeout(this.__idle);
    this.__listener = listener;
    if (!this.__ws || this.__ws.readyState > 1) this.__connect(token, timeoutMs);
    await withSignal(this.__ready!, signal);
    this.__busy = new Promise((resolve) => (this.__settleBusy = resolve));
    return this.__ws!;
  }

  /**
   * The turn is done with the socket. `free`: the next turn may use it now; `done`: once its
   * `done` frame arrived (a reply or an error frame ends a turn before it); `close`: it is
   * closed (an aborted turn's frames would still arrive on it).
   */
  release(how: 'free' | 'done' | 'close'): void {
    if (how === 'close') return this.close();
    if (how === 'done') {
      // A `done` that never comes would hold every later turn: the socket is given up instead.
      const late = setTimeout(() => this.close(), this.timings.pongWaitMs);
      const free = (): void => (clearTimeout(late), this.release('free'));
      this.__listener = {
        frame: (f) => f.type === 'done' && free(),
        invalid: () => this.close(),
        tooLarge: () => (this.close(), true),
        closed: () => clearTimeout(late),
        alive: () => undefined,
      };
      return;
    }
    this.__listener = null;
    this.__settleBusy?.();
    this.__settleBusy = null;
    clearTimeout(this.__idle);
    this.__idle = setTimeout(() => this.close(), this.timings.idleMs);
  }

  /** A turn that never got to send lets go: the socket opening for it is of no use. */
  leave(listener: TurnListener): void {
    if (this.__listener === listener) this.close();
  }

  close(): void {
    clearTimeout(this.__idle);
    clearInterval(this.__heartbeat);
    const ws = this.__ws;
    this.__ws = this.__ready = null;
    this.__settleBusy?.();
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState < 2) ws.close(1000);
  }

  private __connect(token: string, timeoutMs: number): void {
    this.close();
    const ws = (this.__ws = new WebSocket(this.__url));
    this.opened += 1;
    let opened = false;
    let isReady = false;
    let settle: { resolve(): void; reject(e: unknown): void };
    this.__ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // Nobody may wait for it (a turn aborted meanwhile): a failed opening is not unhandled.
    this.__ready.catch(() => undefined);
    const timer = setTimeout(() => {
      settle.reject(new ApiError({ kind: 'timeout', message: 'The service took too long to answer.' }));
      this.__drop(ws, null, opened);
    }, timeoutMs);
    ws.onopen = () => {
      opened = true;
      ws.send(JSON.stringify({ type: 'auth', token }));
    };
    ws.onclose = (event) => {
      clearTimeout(timer);
      settle.reject(closeError(event, opened));
      this.__drop(ws, event, opened);
    };
    ws.onmessage = (event) => {
      this.__lastFrame = performance.now();
      let frame: ReturnType<typeof parseFrame>;
      try {
        if (typeof event.data !== 'string') throw protocolError('The service sent a binary frame.');
        // Not parsed: the turn takes its reply as cut there (the socket goes, and the rest of it).
        if (event.data.length > this.__maxFrame) {
          if (isReady && this.__listener?.tooLarge()) return;
          throw protocolError('The service sent a frame that is too large.');
        }
        frame = parseFrame(event.data);
      } catch (e) {
        if (!isReady) return settle.reject(e);
        return this.__listener?.invalid(e);
      }
      switch (frame.type) {
        case 'ping':
          ws.send('{"type":"pong"}');
          return this.__listener?.alive();
        case 'pong':
          return this.__listener?.alive();
      }
      if (isReady) return this.__listener?.frame(frame);
      if (frame.type === 'ready') {
        isReady = true;
        clearTimeout(timer);
        this.__beat(ws);
        return settle.resolve();
      }
      // Before `ready` the session refused `auth`; other frames are not the protocol.
      settle.reject(
        frame.type === 'error'
          ? rejection(frame as ErrorFrame, false, false)
          : protocolError('The service sent a frame before the session was ready.'),
      );
    };
  }

  /** Every `heartbeatMs` of quiet a ping; nothing back within `pongWaitMs` and the socket is dead. */
  private __beat(ws: WebSocket): void {
    clearInterval(this.__heartbeat);
    const { heartbeatMs, pongWaitMs } = this.timings;
    let pinged = 0;
    this.__heartbeat = setInterval(
      () => {
        const now = performance.now();
        if (pinged && this.__lastFrame < pinged && now - pinged >= pongWaitMs) return this.__drop(ws, null, true);
        if (now - this.__lastFrame >= heartbeatMs && (!pinged || this.__lastFrame >= pinged)) {
          pinged = now;
          ws.send('{"type":"ping"}');
        }
      },
      Math.min(heartbeatMs, pongWaitMs) / 2,
    );
  }

  private __drop(ws: WebSocket, event: CloseEvent | null, opened: boolean): void {
    if (ws !== this.__ws) return;
    const listener = this.__listener;
    this.close();
    listener?.closed(event, opened);
  }
}

/** The ApiError of a socket that closed (before `ready` or mid-turn). */
function closeError(event: CloseEvent, opened: boolean): ApiError {
  if (!opened) return new ApiError({ kind: 'network', message: 'Could not reach the service. Check your connection.' });
  // 4xxx close codes are 4000 + an HTTP status (4401: auth refused, 4408: auth timed out).
  const status = event.code >= 4000 && event.code < 5000 ? event.code - 4000 : event.code === 1009 ? 413 : null;
  if (status === 401) return new ApiError({ kind: 'auth', status, message: 'The service refused the credentials.' });
  if (status !== null) return new ApiError({ kind: 'http', status, message: `The service closed the session (${event.code}).` });
  return new ApiError({ kind: 'stream', message: 'The connection closed before the reply was complete.' });
}

/** One session per client (HttpContext): every turn of a widget shares it. */
const sessions = new WeakMap<HttpContext, SocketSession>();

export function sessionOf(ctx: HttpContext): SocketSession {
  let session = sessions.get(ctx);
  if (!session) sessions.set(ctx, (session = new SocketSession(sessionUrl(ctx.baseUrl), SESSION_TIMINGS, frameLimit(ctx.maxReply))));
  return session;
}

/** Closes the client's session, if it has one (the widget left the page). */
export function closeSession(ctx: HttpContext): void {
  sessions.get(ctx)?.close();
}

/**
 * One connection of a turn over the client's session: an open, authenticated socket (the
 * session's, or a new one), the turn (or `resume` with the learned thread id and the last
 * seq, 0 when none arrived yet), its frames until `done`. A 401 gets one fresh token, not
 * counted as a retry.
 *
 * Errors: `auth` (401 on `auth`), `http` (a `message`/`resume` refused before its `thread`
 * frame, e.g. 422 with details, as the SSE POST would be), `stream` (an `error` frame
 * mid-turn), `protocol`, `abort`; drops (`network`, `timeout`, a close before `done`) go
 * back to the loop, which resumes on a new socket.
 */
export function socketConnection(ctx: HttpContext, body: SendMessageBody, opts: StreamOptions, session = sessionOf(ctx)): Connect {
  const { idleTimeoutMs = 30_000 } = opts;
  const connectTimeoutMs = opts.timeoutMs ?? ctx.timeoutMs;
  const turnBody = stripAgentId(body);
  let refreshed = false;

  const connect: Connect = async (progress, signal) => {
    let token: string | null = null;
    try {
      token = await withSignal(ctx.tokens.get(), signal);
      return await new Promise<ApiError | null>((resolve, reject) => {
        let threadSeen = false;
        let sent = false;
        let settled = false;
        // `connectTimeoutMs` to an open session, then `idleTimeoutMs` after every frame.
        let lastSign = performance.now();
        const watch = countdown(
          () => lastSign + idleTimeoutMs,
          () => drop(new ApiError({ kind: 'timeout', message: 'The service took too long to answer.' })),
        );
        watch.stop();
        const finish = (settle: () => void, how: 'free' | 'done' | 'close' = 'close'): void => {
          if (settled) return;
          settled = true;
          watch.stop();
          signal.removeEventListener('abort', onAbort);
          if (sent) session.release(how);
          else session.leave(listener);
          settle();
        };
        const fail = (e: unknown): void => finish(() => reject(e));
        const drop = (e: ApiError): void => finish(() => resolve(e));
        const onAbort = (): void => fail(signal.reason);
        const listener: TurnListener = {
          // A ping or pong proves the socket, not the turn: only the turn's frames hold it.
          alive: () => (lastSign = performance.now()),
          closed: (event, opened) => {
            if (!sent) return; // The opening failed: `open()` rejects with why.
            const error = event
              ? closeError(event, opened)
              : new ApiError({ kind: 'stream', message: 'The connection closed before the reply was complete.' });
            // "Not taken" (4408, 4429, 4503) is an answer, as the HTTP status would be; any other status is final.
            if (error.kind !== 'stream' && !NOT_TAKEN.includes(error.status ?? 0)) return fail(error);
            drop(error);
          },
          invalid: (e) => fail(e),
          // The socket goes with the rest of the reply: the next turn opens another.
          tooLarge: () => {
            if (settled || !progress.tooLarge()) return false;
            finish(() => resolve(null));
            return true;
          },
          frame: (frame) => {
            if (settled) return;
            try {
              lastSign = performance.now();
              switch (frame.type) {
                case 'done':
                  return finish(() => resolve(null), 'free');
                case 'error': {
                  const e = rejection(frame as ErrorFrame, true, threadSeen);
                  // A refusal (before the `thread` frame) comes without `done`; an error
                  // mid-turn is followed by one. Either way the socket stays usable.
                  const how = threadSeen ? 'done' : 'free';
                  // The service said it did not take the turn: sending it again is safe.
                  if (e.kind === 'http' && NOT_TAKEN.includes(e.status ?? 0)) {
                    progress.sent = false;
                    return finish(() => resolve(e), how);
                  }
                  return finish(() => reject(e), how);
                }
              }
              if (!DATA_TYPES.includes(frame.type)) return progress.unknown(frame);
              if (frame.type === 'thread') threadSeen = true;
              progress.apply(frame as DataFrame);
              // The `message` frame is the whole reply: the turn is over; `done` follows on the
              // socket. A cut reply is over too, and the socket goes with the rest of it.
              if (progress.truncated) finish(() => resolve(null));
              else if (progress.message) finish(() => resolve(null), 'done');
            } catch (e) {
              fail(e);
            }
          },
        };

        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        session.open(token ?? '', signal, connectTimeoutMs, listener).then(
          (ws) => {
            if (settled) return session.release('free');
            progress.sent = !progress.resumable;
            sent = true;
            lastSign = performance.now();
            watch.restart();
            ws.send(
              JSON.stringify(
                progress.resumable
                  ? // The question as asked: a service resumes a turn only for whoever asked it.
                    {
                      type: 'resume',
                      thread_id: progress.threadId,
                      last_event_id: progress.lastSeq,
                      user_id: turnBody.user_id,
                      text: turnBody.text,
                    }
                  : { type: 'message', data: turnBody, idempotency_key: opts.idempotencyKey },
              ),
            );
          },
          (e: unknown) => {
            if (settled) return;
            const error = errorFromException(e, signal, () => false);
            // A socket that could not open or closed before `ready` is a drop; a refusal is final.
            if (error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'stream' && !error.status)) drop(error);
            else if (error.kind === 'http' && NOT_TAKEN.includes(error.status ?? 0)) drop(error);
            else fail(error);
          },
        );
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
    retryAfterMs: e.retryAfterMs,
    details: details.map((d) => ({
      message: typeof d.message === 'string' ? d.message : '',
      field: typeof d.field === 'string' ? d.field : null,
    })),
  });
}
