import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ApiError, errorResponse } from '../http/errors.js';
import type { Deps } from '../deps.js';
import { tokenBodySchema } from '../http/schemas.js';
import type { KeyRecord } from '../store/store.js';
import { parseBody } from '../http/validate.js';

const DEFAULT_TOKEN_TTL_S = 900;
const ISSUER = 'agent-chat-reference-server';

interface TokenClaims extends JWTPayload {
  /** The publishable key the token was minted from; fault plans and stats hang off it. */
  pk?: string;
  /**
   * What the token serves, space-separated (RFC 8693): `messaging` for a token exchanged from
   * a publishable key, `messaging management` for a login session's (docs/protocol.md
   * "Management"). A token without it is a publishable key's.
   */
  scope?: string;
}

export const MESSAGING_SCOPE = 'messaging';
export const LOGIN_SCOPE = 'messaging management';

/**
 * A signed access token for `key`'s agent, living `ttl` seconds of the key's clock. JWT times
 * are whole seconds: a positive lifetime is rounded up so a short test token is never
 * shorter than asked, and a zero lifetime down so it is expired on arrival.
 */
export async function mintToken(deps: Deps, key: KeyRecord, ttl: number, scope: string): Promise<string> {
  const now = (Date.now() + key.clockOffsetMs) / 1000;
  const exp = ttl > 0 ? Math.ceil(now + ttl) : Math.floor(now);
  const token = await new SignJWT({ pk: key.key, scope } satisfies TokenClaims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(key.agentId)
    .setIssuedAt(Math.floor(now))
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(deps.secret);
  key.stats.tokensIssued += 1;
  return token;
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'auth.invalid_token',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/**
 * The `fail` knob: the first entry with budget left whose `path` matches fails this
 * request. Without `path` an entry matches messaging requests only, never token exchange.
 */
export function injectedFailure(c: Context, key: KeyRecord): Response | undefined {
  const path = c.req.path;
  const entries = key.plan.fail ?? [];
  for (const [i, entry] of entries.entries()) {
    if (key.budget.fail[i]! <= 0) continue;
    const matches = entry.path !== undefined ? path.includes(entry.path) : path.startsWith('/messaging/');
    if (!matches) continue;
    key.budget.fail[i]! -= 1;
    if (entry.retryAfter !== undefined) c.header('Retry-After', String(entry.retryAfter));
    const status = entry.status as 400;
    if (entry.rawBody !== undefined) {
      const type = entry.rawBody.trimStart().startsWith('<') ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
      return c.body(entry.rawBody, status, { 'content-type': type });
    }
    const code = entry.code ?? DEFAULT_CODES[entry.status] ?? 'error';
    return errorResponse(c, new ApiError(status, code, `Injected failure (${entry.status}).`));
  }
  return undefined;
}

async function recordRequest(c: Context, deps: Deps, key: KeyRecord): Promise<void> {
  let body: unknown = null;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    // Read as text: Hono caches it, so the route can still read (and validate) it afterwards.
    const raw = await c.req.text();
    try {
      body = raw ? (JSON.parse(raw) as unknown) : null;
    } catch {
      body = raw;
    }
  }
  deps.store.recordRequest(key, {
    method: c.req.method,
    path: c.req.path,
    lastEventId: c.req.header('last-event-id') ?? null,
    body,
  });
}

export function authRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.post('/management/v1/auth/token', async (c) => {
    const { publishable_key } = await parseBody(c, tokenBodySchema);
    const key = deps.store.key(publishable_key);
    if (!key) throw new ApiError(401, 'auth.invalid_key', 'The publishable key is not valid.');
    await recordRequest(c, deps, key);
    const limited = deps.store.limited(key);
    if (limited) throw limited;
    if (key.budget.tokenExchangeFailures > 0) {
      key.budget.tokenExchangeFailures -= 1;
      throw new ApiError(401, 'auth.invalid_key', 'The publishable key was rejected.');
    }
    const injected = injectedFailure(c, key);
    if (injected) return injected;

    const ttl = key.plan.tokenTtl ?? DEFAULT_TOKEN_TTL_S;
    const token = await mintToken(deps, key, ttl, MESSAGING_SCOPE);
    return c.json({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: MESSAGING_SCOPE });
  });

  return app;
}

export interface TokenCheck {
  /** Set whenever the signature was good, an expired token included. */
  key?: KeyRecord;
  /** What a good token serves (`scope`). */
  scopes?: ReadonlySet<string>;
  /** Set when the token must be refused (401 with this code). */
  error?: ApiError;
}

/** Verifies an access token (HTTP bearer or WebSocket `auth` frame alike). */
export async function checkToken(deps: Deps, token: string): Promise<TokenCheck> {
  const invalid = new ApiError(401, 'auth.invalid_token', 'The access token is not valid.');
  let claims: TokenClaims;
  try {
    // Checked at its key's time (a test may have moved it on: KeyRecord.clockOffsetMs).
    const pk = (decodeJwt(token) as TokenClaims).pk;
    const offset = (typeof pk === 'string' && deps.store.key(pk)?.clockOffsetMs) || 0;
    const currentDate = new Date(Date.now() + offset);
    ({ payload: claims } = await jwtVerify<TokenClaims>(token, deps.secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      const key = deps.store.key(String((error.payload as TokenClaims).pk));
      return { key, error: new ApiError(401, 'auth.token_expired', 'The access token has expired.') };
    }
    return { error: invalid };
  }
  const key = claims.pk ? deps.store.key(claims.pk) : undefined;
  if (!key || key.agentId !== claims.sub) return { error: invalid };
  const scope = typeof claims.scope === 'string' ? claims.scope : MESSAGING_SCOPE;
  return { key, scopes: new Set(scope.split(' ')) };
}

/** Every messaging request: a valid bearer token first, then the key's rate, then its injected faults. */
export function bearerAuth(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const challenge = { 'WWW-Authenticate': 'Bearer' };
    if (!match)
      throw new ApiError(401, 'auth.missing_token', 'An access token is required: Authorization: Bearer <token>.', null, challenge);

    const checked = await checkToken(deps, match[1]!);
    // An expired token's signature was good, so the request still belongs to its key's log.
    if (checked.key) await recordRequest(c, deps, checked.key);
    if (checked.error) throw new ApiError(401, checked.error.code, checked.error.message, null, challenge);
    const key = checked.key!;
    // The key's rate, before anything else of it runs (its faults included).
    const limited = deps.store.limited(key);
    if (limited) throw limited;
    if (key.budget.unauthorized > 0) {
      key.budget.unauthorized -= 1;
      throw new ApiError(401, 'auth.invalid_token', 'The access token has been revoked.', null, challenge);
    }
    const injected = injectedFailure(c, key);
    if (injected) return injected;

    c.set('caller', { key, agentId: key.agentId });
    await next();
  };
}
