import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { ThreadFrame } from '@agent-chat/wire';
import { checkToken, rateLimited } from '../auth/tokens.js';
import type { Deps } from '../deps.js';
import { ApiError, fromZodError, notFound } from '../http/errors.js';
import { parseJson } from '../http/validate.js';
import { hostNotAllowed } from '../http/hosts.js';
import { originNotAllowed } from '../http/origins.js';
import { claimKey, keepKey, notReceived, readIdempotencyKey, releaseKey } from './idempotency.js';
import { hexId, MAX_BODY_BYTES, sendBodySchema } from '../http/schemas.js';
import { newRequestId } from '../http/ids.js';
import type { Admission } from '../store/budgets.js';
import type { KeyRecord, ThreadRecord } from '../store/records.js';
import { actsFor, createThread, opens, versionFor } from './threads.js';
import type { ConnectionIo } from './sse.js';
import { PLAIN_SESSION, type SessionTap } from './taps.js';
import { findTurn, mayResume, startTurn, type FollowableTurn } from './turn.js';

/**
 * The WebSocket session, `/messaging/v1/session` (PROVISIONAL: the reference does not show
 * its protocol; docs/protocol.md fixes the frames, README.md "WebSocket session" the rest).
 *
 *   client                                server
 *   {"type":"auth","token":"<JWT>"}   ->
 *                                     <-  {"type":"ready"}   (or error 401, close 4401)
 *   {"type":"message","data":<body>,"idempotency_key"?}  ->
 *                                     <-  thread, event(seq)..., message(seq) | error
 *                                     <-  {"type":"done"}
 *   {"type":"resume","thread_id","last_event_id"} -> thread frame + frames after
 *                                                    last_event_id, live, then done
 *
 * It shares everything with the SSE route: token checks, zod schemas, the stores and the
 * detached turn runner (turn.ts). What may happen to the socket besides its frames (a cut,
 * a stall, a refused `auth`: the fault knobs in tests) is its tap's (taps.ts), asked at
 * `auth`; the tap counts "turn frames" (thread, event, message, error and its own), not
 * `ready`, `done`, `ping` or `pong`.
 */

export const SESSION_PATH = '/messaging/v1/session';

/** Close codes: 4000 + the HTTP status they stand for; 1000/1001/1009/1011 as in RFC 6455. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  unauthorized: 4401,
  authTimeout: 4408,
  tooMany: 4429,
  internal: 1011,
} as const;

const AUTH_TIMEOUT_MS = 10_000;
/** Silence after which the server writes a `ping` frame, and the protocol ping period. */
const KEEPALIVE_MS = 15_000;

/** Anything with Node's `upgrade` event: http.Server, https.Server, Vite's and wds's servers. */
export interface UpgradeServer {
  on(event: 'upgrade', listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
  off(event: 'upgrade', listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
}

export interface SessionServer {
  /** Stops accepting sessions and closes the open ones (1001). */
  close(): void;
}

const authFrameSchema = z.object({ type: z.literal('auth'), token: z.string().min(1).max(8192) });

const resumeFrameSchema = z.object({
  type: z.literal('resume'),
  thread_id: hexId,
  // The question resumed, as it was asked: needed unless this socket's token asked it.
  user_id: z.string().max(256).optional(),
  text: z.string().max(4000).optional(),
  last_event_id: z
    .number({ error: 'Must be a non-negative integer (the last seq received).' })
    .int({ error: 'Must be a non-negative integer (the last seq received).' })
    .min(0, { error: 'Must be a non-negative integer (the last seq received).' }),
});

function pathOf(url: string | undefined): string {
  const q = (url ?? '').search(/[?#]/);
  return q < 0 ? (url ?? '') : (url ?? '').slice(0, q);
}

/** The `error` frame for a failure outside a turn: same fields as the error envelope, plus `status`. */
function errorFrame(e: ApiError): string {
  const retryAfter = e.headers['Retry-After'];
  return JSON.stringify({
    type: 'error',
    data: {
      status: e.status,
      code: e.code,
      message: e.message,
      details: e.details,
      request_id: newRequestId(),
      // What `Retry-After` says over HTTP (a 429), in seconds.
      ...(retryAfter ? { retry_after: Number(retryAfter) } : {}),
    },
  });
}

/** Answers an upgrade that may not go ahead with the error envelope, over plain HTTP, and closes. */
function refuseUpgrade(socket: Duplex, error: ApiError): void {
  const requestId = newRequestId();
  const body = JSON.stringify({ error: { code: error.code, message: error.message, request_id: requestId, details: null } });
  const reason = error.status === 421 ? 'Misdirected Request' : 'Forbidden';
  socket.end(
    `HTTP/1.1 ${error.status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `x-request-id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Serves `/messaging/v1/session` on `server` in `noServer` mode. Only upgrades for that path
 * are taken; every other one (Vite's HMR, the test runner's socket) is left to its owner.
 */
export function attachSessionServer(server: UpgradeServer, deps: Deps): SessionServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (pathOf(req.url) !== SESSION_PATH) return;
    // The same gates as over HTTP (app.ts), in the same order: the name the request is
    // for, then the page's origin, which browsers do not guard with CORS on WebSockets.
    const host = req.headers.host;
    if (!deps.hosts(host)) return refuseUpgrade(socket, hostNotAllowed(host));
    // Card images get absolute URLs on the origin the socket reached, as over HTTP.
    const origin = `${'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http'}://${host}`;
    const page = req.headers.origin;
    if (page !== undefined && !deps.origins(page, origin)) return refuseUpgrade(socket, originNotAllowed(page));
    wss.handleUpgrade(req, socket, head, (ws) => runSession(ws, deps, origin));
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(CLOSE.goingAway, 'Server shutting down');
      wss.close();
    },
  };
}

function runSession(ws: WebSocket, deps: Deps, origin: string): void {
  const { stores } = deps;
  const closed = new AbortController();
  let key: KeyRecord | null = null;
  let agentId = '';
  /** The token's `jti`: who this socket is, for the turns it starts. */
  let session = '';
  /** The visitor the token was exchanged for, if any (`Caller.visitor`), and whether it opens every one's threads. */
  let visitor: string | undefined;
  let everyVisitor = false;
  let busy = false;
  let stalled = false;
  let lastSent = Date.now();
  let alive = true;
  /** Turn frames written on this socket (across its turns): what its tap counts. */
  let written = 0;
  let tap: SessionTap = PLAIN_SESSION;

  const write = (data: string): boolean => {
    if (ws.readyState !== ws.OPEN) return false;
    ws.send(data);
    lastSent = Date.now();
    return true;
  };
  const fail = (e: ApiError): void => void write(errorFrame(e));
  const refuse = (e: ApiError, code: number): void => {
    fail(e);
    ws.close(code, e.code);
  };

  const authTimer = setTimeout(
    () => refuse(new ApiError(401, 'auth.timeout', 'No auth frame arrived in time.'), CLOSE.authTimeout),
    AUTH_TIMEOUT_MS,
  );
  const keepalive = setInterval(() => {
    if (!alive) return void ws.terminate();
    alive = false;
    ws.ping();
    if (key && !stalled && Date.now() - lastSent >= KEEPALIVE_MS) write('{"type":"ping"}');
  }, KEEPALIVE_MS);
  keepalive.unref?.();
  ws.on('pong', () => (alive = true));
  ws.on('error', () => {}); // ws closes the socket itself after a protocol error
  ws.on('close', () => {
    clearTimeout(authTimer);
    clearInterval(keepalive);
    closed.abort();
  });

  const io: ConnectionIo = {
    write: async (data) => {
      if (write(data)) written += 1;
    },
    comment: () => {},
    cut: () => ws.terminate(),
    stall: () => (stalled = true),
    closed: closed.signal,
  };
  /** Whether to go on writing (the session's tap decides: a cut, a stall, a frame of its own). */
  const checkpoint = (): Promise<boolean> => (closed.signal.aborted ? Promise.resolve(false) : tap.connection.checkpoint(written, io));

  const sendTurnFrame = async (data: string): Promise<boolean> => {
    if (!write(data)) return false;
    written += 1;
    return checkpoint();
  };

  /** One socket's view of a turn: thread frame, buffered frames after `after`, live ones, done. */
  const follow = async (turn: FollowableTurn, after: number): Promise<void> => {
    busy = true;
    try {
      if (!(await checkpoint())) return;
      const thread: ThreadFrame = { type: 'thread', data: { thread_id: turn.threadId } };
      if (!(await sendTurnFrame(JSON.stringify(thread)))) return;
      for await (const { frame } of turn.follow(after, closed.signal)) {
        if (!(await sendTurnFrame(JSON.stringify(frame)))) return;
      }
      if (!closed.signal.aborted) write('{"type":"done"}');
    } finally {
      busy = false;
    }
  };
  /** A turn's frames on the socket, apart from the frame that asked (a database that fails mid-turn closes the socket: the client resumes). */
  const relay = (turn: FollowableTurn, after: number): void =>
    void follow(turn, after).catch((error: unknown) => {
      console.error('reference server: session error', error);
      refuse(new ApiError(500, 'internal_error', 'Something went wrong on our side.'), CLOSE.internal);
    });

  const authenticate = async (frame: unknown): Promise<void> => {
    clearTimeout(authTimer);
    const parsed = authFrameSchema.safeParse(frame);
    if (!parsed.success) {
      return refuse(
        new ApiError(401, 'auth.missing_token', 'The first frame must be {"type":"auth","token":"<access token>"}.'),
        CLOSE.unauthorized,
      );
    }
    const checked = await checkToken(deps, parsed.data.token);
    if (checked.error || !checked.key) return refuse(checked.error!, CLOSE.unauthorized);
    const k = checked.key;
    const opened = deps.taps.session(k);
    if (opened.refusal) return refuse(opened.refusal, CLOSE.unauthorized);
    // A session is a request of its key (its rate), and holds a place of the key's and of its token's.
    const limited = await rateLimited(deps, k);
    if (limited) return refuse(limited, CLOSE.tooMany);
    const place = deps.sessions.take(k, checked.tokenId ?? '');
    if (place instanceof ApiError) return refuse(place, CLOSE.tooMany);
    closed.signal.addEventListener('abort', place, { once: true });
    if (closed.signal.aborted) return place();
    key = k;
    agentId = k.agentId;
    session = checked.tokenId ?? '';
    visitor = checked.visitor;
    everyVisitor = checked.scopes?.has('management') ?? false;
    tap = opened;
    // Cut before `ready`, so the client knows no turn was sent on this socket.
    if (tap.dropBeforeReady) return void ws.terminate();
    write('{"type":"ready"}');
  };

  /** A thread the caller may open, touched; another agent's or visitor's is reported as missing. */
  const threadOf = async (id: string): Promise<ThreadRecord | undefined> => {
    const thread = await stores.threads.get(id.toLowerCase(), { touch: Date.now() });
    return thread && opens(thread, { agentId, visitor, everyVisitor }) ? thread : undefined;
  };

  const startMessage = async (k: KeyRecord, frame: Record<string, unknown>): Promise<void> => {
    const refused = tap.frame?.('message', frame, null);
    if (refused) return fail(refused);
    const parsed = sendBodySchema.safeParse(frame.data);
    if (!parsed.success) return fail(fromZodError(parsed.error));
    const body = parsed.data;
    // As the HTTP header (idempotency.ts): a message sent again joins the turn it started.
    let idempotency: string | undefined;
    let keyed: FollowableTurn | null | undefined;
    try {
      actsFor(visitor, body.user_id);
      idempotency = readIdempotencyKey(typeof frame.idempotency_key === 'string' ? frame.idempotency_key : undefined);
      keyed = idempotency === undefined ? undefined : await claimKey(deps, k, idempotency, body);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return fail(error);
    }
    if (keyed === null) return fail(notReceived());
    // The key's turn, if its thread is one this caller may open (another visitor's is missing).
    if (keyed) return (await threadOf(keyed.threadId)) ? relay(keyed, -1) : fail(notFound('Thread'));
    // This message holds its key's claim (claimKey) until it keeps the turn it starts; refused,
    // it lets go, so that the key is unseen for its next try.
    const refuse = async (error: ApiError) => {
      if (idempotency !== undefined) await releaseKey(deps, k, idempotency);
      fail(error);
    };
    const title = body.text.length > 80 ? `${body.text.slice(0, 77)}...` : body.text;
    let admitted: Admission;
    try {
      admitted = await deps.budgets.admitTurn(k);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return refuse(error);
    }
    let thread: ThreadRecord | undefined;
    try {
      thread = body.thread_id ? await threadOf(body.thread_id) : await createThread(deps, k, { userId: body.user_id, visitor, title });
    } catch (error) {
      admitted.done();
      if (idempotency !== undefined) await releaseKey(deps, k, idempotency);
      throw error;
    }
    if (!thread) {
      admitted.done();
      return refuse(notFound('Thread'));
    }
    let turn: FollowableTurn;
    try {
      turn = await startTurn(deps, {
        origin,
        key: k,
        thread,
        text: body.text,
        userId: body.user_id,
        imageUrl: body.image_url,
        variables: body.agent_variables,
        version: await versionFor(deps, thread),
        streaming: true,
        idempotencyKey: idempotency,
        caller: session,
        openedThread: !body.thread_id,
        admitted,
      });
    } catch (error) {
      // Not started (its thread forgotten meanwhile: 404): the key is unseen again.
      if (!(error instanceof ApiError)) throw error;
      return refuse(error);
    }
    if (idempotency !== undefined) await keepKey(deps, k, idempotency, body, turn);
    relay(turn, -1);
  };

  const startResume = async (frame: Record<string, unknown>): Promise<void> => {
    const lastEventId = frame.last_event_id;
    const refused = tap.frame?.(
      'resume',
      frame,
      typeof lastEventId === 'number' || typeof lastEventId === 'string' ? String(lastEventId) : null,
    );
    if (refused) return fail(refused);
    const parsed = resumeFrameSchema.safeParse(frame);
    if (!parsed.success) return fail(fromZodError(parsed.error));
    try {
      actsFor(visitor, parsed.data.user_id);
    } catch (error) {
      return fail(error as ApiError);
    }
    const turn = await findTurn(deps, (await threadOf(parsed.data.thread_id))?.latestTurn);
    // Resume attaches to the turn the client lost (its own: mayResume); it never starts a new one.
    const asker = { session, userId: parsed.data.user_id, text: parsed.data.text };
    if (!turn || !turn.resumes(parsed.data.last_event_id) || !mayResume(turn, asker)) {
      return fail(new ApiError(409, 'stream.not_resumable', 'There is no turn of this thread to resume.'));
    }
    relay(turn, parsed.data.last_event_id);
  };

  const handle = async (raw: RawData, isBinary: boolean): Promise<void> => {
    if (closed.signal.aborted) return;
    let frame: unknown;
    try {
      if (isBinary) throw new Error('binary');
      frame = parseJson(raw.toString());
    } catch (error) {
      // A frame with a NUL character is refused as a body would be (422).
      if (key && error instanceof ApiError && error.status === 422) return fail(error);
      frame = undefined;
    }
    if (!key) return authenticate(frame);
    if (frame === undefined) return fail(new ApiError(400, 'invalid_json', 'Frames are JSON text.'));
    const type = typeof frame === 'object' && frame !== null ? (frame as { type?: unknown }).type : undefined;
    const f = frame as Record<string, unknown>;
    switch (type) {
      case 'ping':
        // A session whose tap says so stops answering, as a dead proxy would.
        if (!tap.answersPing) return;
        return void write('{"type":"pong"}');
      case 'pong':
        return;
      case 'message':
      case 'resume': {
        // One turn at a time per socket; the running one is not disturbed.
        if (busy) return fail(new ApiError(409, 'session.busy', 'A turn is already running on this socket.'));
        // Each turn or resume counts against the key's rate, as a request would over HTTP.
        const limited = await rateLimited(deps, key);
        if (limited) return fail(limited);
        return type === 'message' ? startMessage(key, f) : startResume(f);
      }
      default:
        return fail(new ApiError(400, 'bad_request', 'Unknown frame type; expected message, resume or ping.'));
    }
  };

  // Frames are handled in order (a turn pipelined right after `auth` waits for the check).
  let queue = Promise.resolve();
  ws.on('message', (raw, isBinary) => {
    queue = queue
      .then(() => handle(raw, isBinary))
      .catch((error: unknown) => {
        console.error('reference server: session error', error);
        refuse(new ApiError(500, 'internal_error', 'Something went wrong on our side.'), CLOSE.internal);
      });
  });
}
