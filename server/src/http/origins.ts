import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';
import { isLoopback } from './node.js';

/**
 * Which web pages may call the reference server (CORS, and the WebSocket session's upgrade,
 * which browsers do not guard with CORS). Run for others, a server that answered any origin
 * would let every page its users visit drive it: spend the model key behind it, mint fault
 * keys, read the management surface with the dev organization key.
 *
 * A pattern is an origin (`https://shop.example`), an origin with any port
 * (`http://localhost:*`, which also matches no port), `null` (pages that have no origin:
 * `file://`, sandboxed frames) or `*` (any origin: the old behaviour, on purpose only).
 * The server's own origin is always allowed: a page it serves calls it same-origin.
 */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

/** Whether a page on `origin` may call a server that `own` is the origin of. */
export type OriginRule = (origin: string, own: string) => boolean;

interface Pattern {
  protocol: string;
  hostname: string;
  /** `null`: any port, or none. */
  port: string | null;
}

function parsePattern(pattern: string): Pattern | 'any' | 'null' {
  if (pattern === '*') return 'any';
  if (pattern === 'null') return 'null';
  const anyPort = pattern.endsWith(':*');
  let url: URL;
  try {
    url = new URL(anyPort ? pattern.slice(0, -2) : pattern);
  } catch {
    throw new Error(`ALLOWED_ORIGINS: "${pattern}" is not an origin (e.g. https://shop.example or http://localhost:*).`);
  }
  // An origin has no path, query or credentials: a pattern with one would never match, silently.
  // A wildcard host (`*.shop.example`) parses as a host name: it is not a pattern this rule knows.
  const origin = (anyPort ? pattern.slice(0, -2) : pattern).replace(/\/$/, '');
  if (!/^https?:$/.test(url.protocol) || url.origin !== origin || url.hostname.includes('*')) {
    throw new Error(`ALLOWED_ORIGINS: "${pattern}" is not an http(s) origin (scheme, host and port only).`);
  }
  return { protocol: url.protocol, hostname: url.hostname, port: anyPort ? null : url.port };
}

/**
 * Whether every page the patterns let in is a page on this machine: each is an http(s)
 * origin on `localhost`, a `127.x` address or `[::1]` (not `*`, nor `null`, which any
 * sandboxed frame of any site has).
 */
export function onlyLoopbackPages(patterns: readonly string[]): boolean {
  return patterns.every((pattern) => {
    const parsed = parsePattern(pattern);
    return typeof parsed === 'object' && isLoopback(parsed.hostname);
  });
}

/** The rule for a list of patterns; throws on a pattern that could never match. */
export function originRule(patterns: readonly string[] = DEFAULT_ALLOWED_ORIGINS): OriginRule {
  const parsed = patterns.map(parsePattern);
  const any = parsed.includes('any');
  const opaque = parsed.includes('null');
  const exact = parsed.filter((p): p is Pattern => typeof p === 'object');
  return (origin, own) => {
    if (any) return true;
    if (origin === 'null') return opaque;
    if (origin === own) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    // An Origin header is exactly an origin; anything longer is not a browser's.
    if (url.origin !== origin) return false;
    return exact.some((p) => p.protocol === url.protocol && p.hostname === url.hostname && (p.port === null || p.port === url.port));
  };
}

/** `ALLOWED_ORIGINS` (comma list) as patterns, or the default (loopback pages on any port). */
export function originsFromEnv(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const listed = (env['ALLOWED_ORIGINS'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!listed.length) return DEFAULT_ALLOWED_ORIGINS;
  originRule(listed); // throws on a pattern that could never match, at start rather than on every request
  return listed;
}

/** The refusal for a page that may not call this server. */
export const originNotAllowed = (origin: string): ApiError =>
  new ApiError(403, 'cors.origin_not_allowed', `Pages on ${origin.slice(0, 200)} may not call this server (ALLOWED_ORIGINS).`);

/** A header list as a preflight asks for it (`authorization,content-type`): tokens only, bounded. */
const HEADER_LIST = /^[\w-]+(?:\s*,\s*[\w-]+)*$/;

/**
 * A request from a page that may not call this server is refused before anything runs
 * (403, the envelope), since a form or a `no-cors` fetch reaches the server without a
 * preflight. Requests without `Origin` (servers, curl, a page's own GETs) are not a page's
 * cross-origin calls.
 *
 * The refused page may read why, though: otherwise its developer reads "could not reach
 * the service", the same as a network down, and not which setting to change. So the
 * refusal names that origin as allowed to read it, and that origin's preflight is answered
 * (for the method and headers it asks, nothing cached) so the browser sends the request
 * itself, whose answer is the refusal. That grants nothing: the request is refused here,
 * whatever it is, before anything runs.
 */
export function originGate(rule: OriginRule): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || rule(origin, new URL(c.req.url).origin)) return next();
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin');
    const method = c.req.header('access-control-request-method');
    if (c.req.method === 'OPTIONS' && method) {
      const headers = c.req.header('access-control-request-headers') ?? '';
      if (/^[A-Z]{1,10}$/.test(method)) c.header('Access-Control-Allow-Methods', method);
      if (headers.length <= 500 && HEADER_LIST.test(headers)) c.header('Access-Control-Allow-Headers', headers);
      return c.body(null, 204);
    }
    c.header('Access-Control-Expose-Headers', 'x-request-id');
    throw originNotAllowed(origin);
  };
}
