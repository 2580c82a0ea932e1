import { Hono, type MiddlewareHandler } from 'hono';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ApiError } from '../http/errors.js';
import { failed } from './failures.js';
import type { Deps } from '../deps.js';
import { tokenBodySchema } from '../http/schemas.js';
import type { KeyRecord } from '../store/records.js';
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
  /** The visitor (`user_id`) a publishable key's token was exchanged for (docs/protocol.md "Visitors"). */
  uid?: string;
}

export const MESSAGING_SCOPE = 'messaging';
export const LOGIN_SCOPE = 'messaging management';

/**
 * A signed access token for `key`'s agent, living `ttl` seconds of the key's clock. JWT times
 * are whole seconds: a positive lifetime is rounded up so a short test token is never
 * shorter than asked, and a zero lifetime down so it is expired on arrival.
 */
export async function mintToken(deps: Deps, key: KeyRecord, ttl: number, scope: string, visitor?: string): Promise<string> {
  const now = deps.clock(key) / 1000;
  const exp = ttl > 0 ? Math.ceil(now + ttl) : Math.floor(now);
  const { kid, secret } = deps.signing.current;
  const claims: TokenClaims = visitor === undefined ? { pk: key.key, scope } : { pk: key.key, scope, uid: visitor };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
    .setIssuer(ISSUER)
    .setSubject(key.agentId)
    .setIssuedAt(Math.floor(now))
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(secret);
  return token;
}

/**
 * One request of `key` against its rate: the 429 to answer when its bucket is empty (with
 * `Retry-After`), else nothing. Time is the key's (a test may have moved its clock on).
 */
export async function rateLimited(deps: Deps, key: KeyRecord): Promise<ApiError | undefined> {
  const wait = await deps.stores.rates.take(`key:${key.key}`, key.limits, deps.clock(key));
  if (!wait) return undefined;
  return new ApiError(429, 'rate_limited', `Too many requests for this key; try again in ${wait} s.`, null, {
    'Retry-After': String(wait),
  });
}

export function authRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.post('/management/v1/auth/token', async (c) => {
    const { publishable_key, user_id } = await parseBody(c, tokenBodySchema);
    const key = await deps.stores.keys.get(publishable_key);
    if (!key) throw await failed(deps, c, new ApiError(401, 'auth.invalid_key', 'The publishable key is not valid.'));
    const limited = await rateLimited(deps, key);
    if (limited) throw limited;
    const ttl = key.tokenTtl ?? DEFAULT_TOKEN_TTL_S;
    const token = await mintToken(deps, key, ttl, MESSAGING_SCOPE, user_id);
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
  /** A good token's `jti`: the session it stands for. */
  tokenId?: string;
  /** A good token's `uid`: the visitor it acts for, if it was exchanged for one. */
  visitor?: string;
}

/** Verifies an access token (HTTP bearer or WebSocket `auth` frame alike), with the key its `kid` names. */
export async function checkToken(deps: Deps, token: string): Promise<TokenCheck> {
  const invalid = new ApiError(401, 'auth.invalid_token', 'The access token is not valid.');
  let claims: TokenClaims;
  try {
    const { kid } = decodeProtectedHeader(token);
    const signing = typeof kid === 'string' ? deps.signing.byKid.get(kid) : undefined;
    if (!signing) return { error: invalid };
    // Checked at its key's time (a test may have moved it on).
    const pk = (decodeJwt(token) as TokenClaims).pk;
    const key = typeof pk === 'string' ? await deps.stores.keys.get(pk) : undefined;
    const currentDate = new Date(key ? deps.clock(key) : Date.now());
    ({ payload: claims } = await jwtVerify<TokenClaims>(token, signing.secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      const key = await deps.stores.keys.get(String((error.payload as TokenClaims).pk));
      return { key, error: new ApiError(401, 'auth.token_expired', 'The access token has expired.') };
    }
    return { error: invalid };
  }
  const key = claims.pk ? await deps.stores.keys.get(claims.pk) : undefined;
  if (!key || key.agentId !== claims.sub) return { error: invalid };
  const scope = typeof claims.scope === 'string' ? claims.scope : MESSAGING_SCOPE;
  return {
    key,
    scopes: new Set(scope.split(' ')),
    tokenId: typeof claims.jti === 'string' ? claims.jti : '',
    visitor: typeof claims.uid === 'string' ? claims.uid : undefined,
  };
}

/** Every messaging request: a valid bearer token first, then the key's rate. */
export function bearerAuth(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const challenge = { 'WWW-Authenticate': 'Bearer' };
    if (!match)
      throw new ApiError(401, 'auth.missing_token', 'An access token is required: Authorization: Bearer <token>.', null, challenge);

    const checked = await checkToken(deps, match[1]!);
    if (checked.error) throw new ApiError(401, checked.error.code, checked.error.message, null, challenge);
    const key = checked.key!;
    // The key's rate, before anything else of it runs.
    const limited = await rateLimited(deps, key);
    if (limited) throw limited;
    c.set('caller', {
      key,
      agentId: key.agentId,
      session: checked.tokenId ?? '',
      visitor: checked.visitor,
      everyVisitor: checked.scopes?.has('management'),
    });
    await next();
  };
}
