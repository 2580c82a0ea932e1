import { isObject, type ErrorDetail } from './types.js';

/**
 * What went wrong, coarsely, so the UI can branch without reading messages:
 * - `http`: the service answered with an error status (see `code` / `status`);
 * - `auth`: no usable access token (exchange failed, or a 401 survived one refresh);
 * - `network`: fetch failed or the connection broke;
 * - `timeout`: a request or an idle stream ran out of time;
 * - `abort`: the caller cancelled;
 * - `protocol`: a 2xx response or stream frame that does not have the documented shape;
 * - `stream`: the turn failed mid-stream (an `error` frame) or the stream could not be resumed.
 */
export type ErrorKind = 'http' | 'auth' | 'network' | 'timeout' | 'abort' | 'protocol' | 'stream';

export interface ApiErrorInit {
  kind: ErrorKind;
  message: string;
  status?: number | null;
  code?: string;
  requestId?: string | null;
  details?: ErrorDetail[] | null;
  retryable?: boolean;
  retryAfterMs?: number | null;
  /** The request may have reached the service and started the turn, but its answer was lost. */
  mayHaveRun?: boolean;
  cause?: unknown;
}

/** 408, 429 and 5xx are worth trying again; other statuses will fail the same way. */
export function isRetryableStatus(status: number | null | undefined): boolean {
  return status == null || status === 408 || status === 429 || status >= 500;
}

function defaultRetryable(kind: ErrorKind, status: number | null): boolean {
  // A token exchange that failed with 5xx is transient; a 401 or 403 is not.
  return (
    kind === 'network' ||
    kind === 'timeout' ||
    ((kind === 'http' || kind === 'stream' || (kind === 'auth' && status != null && status !== 401 && status !== 403)) &&
      isRetryableStatus(status))
  );
}

/**
 * The one error type the client throws. `message` is human-readable and may be shown;
 * code that reacts to an error branches on `kind`, `code` and `status`, never on `message`.
 */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly status: number | null;
  readonly code: string;
  readonly requestId: string | null;
  readonly details: ErrorDetail[];
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  /** The turn may be running on the service although the request failed: do not just send it again. */
  readonly mayHaveRun: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.code = init.code ?? (init.kind === 'http' ? `http_${this.status ?? 0}` : init.kind);
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? [];
    this.retryable = init.retryable ?? defaultRetryable(init.kind, this.status);
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.mayHaveRun = init.mayHaveRun ?? false;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The longest wait a Retry-After may ask for; longer (or absurd) values are read as this. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date, at most a day;
 * null if absent or invalid.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  // An HTTP date always has a weekday/month name; Date.parse alone would take "-1" as a year.
  const at = /[a-z]/i.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

function readDetails(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((d) => ({
    message: typeof d.message === 'string' ? d.message : '',
    field: typeof d.field === 'string' ? d.field : null,
  }));
}

function statusText(status: number): string {
  if (status === 401 || status === 403) return 'The service refused the credentials';
  if (status === 404) return 'The service could not find what was asked for';
  if (status === 408 || status === 504) return 'The service took too long to answer';
  if (status === 429) return 'Too many requests; please wait a moment';
  if (status >= 500) return 'The service is unavailable right now';
  return 'The service rejected the request';
}

/**
 * Turns a non-2xx response (its body already read as text) into an ApiError. The body is
 * read as text first: proxies and gateways answer with HTML pages, which must surface as
 * `http_<status>`, not as a JSON syntax error.
 */
export function errorFromResponse(res: Response, text: string, kind: 'http' | 'auth' = 'http'): ApiError {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not an envelope; fall through to the generic error.
  }
  const status = res.status;
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  const headerId = res.headers.get('x-request-id');
  const generic = `${statusText(status)} (HTTP ${status}).`;
  const env = isObject(body) && isObject(body.error) ? body.error : null;
  if (env && typeof env.code === 'string') {
    return new ApiError({
      kind,
      status,
      code: env.code,
      // Shown, never parsed: the reference says the message is not part of the contract.
      message: typeof env.message === 'string' && env.message ? env.message : generic,
      requestId: typeof env.request_id === 'string' ? env.request_id : headerId,
      details: readDetails(env.details),
      retryAfterMs,
    });
  }
  return new ApiError({
    kind,
    status,
    code: kind === 'auth' ? 'auth' : `http_${status}`,
    message: generic,
    requestId: headerId,
    retryAfterMs,
  });
}

/**
 * A chunk of code the turn needs (the streaming code, the turns) could not be fetched or
 * did not run: code `chunk`, retryable, nothing was sent.
 */
export function chunkError(cause: unknown): ApiError {
  return isApiError(cause) ? cause : new ApiError({ kind: 'network', code: 'chunk', message: 'Part of the chat could not load.', cause });
}

export function protocolError(message: string, cause?: unknown): ApiError {
  return new ApiError({ kind: 'protocol', message, cause });
}

/**
 * Classifies a thrown fetch/read failure. Which signal fired decides between abort and
 * timeout: the DOMException names differ between browsers and with `AbortSignal.any`.
 */
export function errorFromException(e: unknown, caller: AbortSignal | undefined, timedOut: () => boolean): ApiError {
  if (isApiError(e)) return e;
  if (caller?.aborted) return new ApiError({ kind: 'abort', message: 'The request was cancelled.', cause: e });
  if (timedOut()) return new ApiError({ kind: 'timeout', message: 'The service took too long to answer.', cause: e });
  return new ApiError({ kind: 'network', message: 'Could not reach the service. Check your connection.', cause: e });
}
