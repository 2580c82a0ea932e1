import { errorFromException, errorFromResponse, protocolError } from './errors.js';
import type { TokenManager } from './token.js';

export interface RequestOptions {
  /** Cancels the request; the promise rejects with an ApiError of kind `abort`. */
  signal?: AbortSignal;
  /** Overrides the client's per-request timeout (ms). */
  timeoutMs?: number;
  /**
   * Sent as `Idempotency-Key`: every request carrying it is the one message, however often
   * it is sent (docs/protocol.md "A send and a reload"). The service must allow the header
   * (CORS `Access-Control-Allow-Headers`).
   */
  idempotencyKey?: string;
}

/** What every request needs from the client. */
export interface HttpContext {
  /** Without trailing slash. */
  baseUrl: string;
  timeoutMs: number;
  tokens: TokenManager;
  /** Characters of one reply kept (`ClientConfig.maxReplyLength`, which the client always sets); nothing is cut without it. */
  maxReply?: number;
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends one request with the current bearer token and returns a 2xx response. A 401 gets
 * one more try with a fresh token when the token source can produce one; a 401 after that,
 * or with a fixed token, is an `auth` error. Other statuses become `http` errors. Raw fetch
 * failures are rethrown unclassified: only the caller knows which of its signals fired.
 */
export async function send(ctx: HttpContext, path: string, init: RequestInit, signal: AbortSignal, onSent?: () => void): Promise<Response> {
  for (let retried = false; ; retried = true) {
    const token = await withSignal(ctx.tokens.get(), signal);
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    // From here on the request may reach the service (`onSent`: the stream's resume rules).
    onSent?.();
    const res = await fetch(ctx.baseUrl + path, { ...init, headers, signal });
    if (res.ok) return res;
    const text = await res.text();
    if (res.status !== 401) throw errorFromResponse(res, text);
    if (!retried && ctx.tokens.canRefresh) {
      ctx.tokens.invalidate(token);
      continue;
    }
    throw errorFromResponse(res, text, 'auth');
  }
}

/** JSON headers plus the body, never with `agent_id`: the token names the agent. The key is an sf-string, as the IETF draft writes it. */
export function jsonInit(method: string, body?: object, key?: string): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers['idempotency-key'] = `"${key}"`;
  if (body === undefined) return { method, headers };
  headers['content-type'] = 'application/json';
  return { method, headers, body: JSON.stringify(stripAgentId(body)) };
}

/** The service rejects `agent_id` with 422; a stale caller must not break every turn. */
export function stripAgentId<T extends object>(body: T): T {
  if (!('agent_id' in body)) return body;
  const copy = { ...body } as Record<string, unknown>;
  delete copy.agent_id;
  return copy as T;
}

/**
 * A plain JSON request under a timeout combined with the caller's signal. Resolves with
 * what `read` made of the parsed body (guards.ts; a reply's text cut at the client's
 * `maxReply`); a 2xx body it refuses (null) is a `protocol` error.
 */
export async function requestJson<T>(
  ctx: HttpContext,
  method: string,
  path: string,
  body: object | undefined,
  read: (value: unknown, maxReply?: number) => T | null,
  what: string,
  opts: RequestOptions = {},
): Promise<T> {
  // A timer cleared when the request ends: `AbortSignal.timeout` would keep its signal (and
  // what listens to it) alive for the whole timeout after every request.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), opts.timeoutMs ?? ctx.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  try {
    const res = await send(ctx, path, jsonInit(method, body, opts.idempotencyKey), signal);
    const text = await res.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw protocolError(`The service sent ${what} that is not valid JSON.`, e);
    }
    const read_ = read(value, ctx.maxReply);
    if (read_ === null) throw protocolError(`The service sent ${what} in an unexpected shape.`);
    return read_;
  } catch (e) {
    throw errorFromException(e, opts.signal, () => timeout.signal.aborted);
  } finally {
    clearTimeout(timer);
  }
}
