import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { failed } from './failures.js';
import { z } from 'zod';
import { checkToken, LOGIN_SCOPE, mintToken, rateLimited } from './tokens.js';
import type { Deps } from '../deps.js';
import { ApiError, notFound } from '../http/errors.js';
import { randomHex } from '../http/ids.js';
import { isLoopback } from '../http/node.js';
import { onlyLoopbackPages } from '../http/origins.js';
import { hexId } from '../http/schemas.js';
import type { KeyRecord } from '../store/records.js';
import { parseBody } from '../http/validate.js';

/**
 * Who may use the management surface (docs/protocol.md "Management"): the organization API
 * key (`x-organization-api-key`, server-side only) for every agent, or a login session's
 * token (`POST /management/v1/auth/login`) for its own agent. A token exchanged from a
 * publishable key is a visitor's: 403. A login session's token serves messaging too, so a
 * builder's widget uses one token for both.
 */

/**
 * The organization key when `ORGANIZATION_API_KEY` is unset and nothing but this machine can
 * use the server: known, so the demo page and the tests can log in. Otherwise an unset key
 * is a random one instead (organizationKeyFromEnv), printed once at start.
 */
export const DEV_ORGANIZATION_API_KEY = 'org_dev_reference_server';

/** A login session's token lives an hour; the widget's `tokenProvider` is asked again after a 401. */
export const LOGIN_TOKEN_TTL_S = 3600;

export type Manager = { kind: 'organization' } | { kind: 'agent'; key: KeyRecord };

declare module 'hono' {
  interface ContextVariableMap {
    manager: Manager;
  }
}

/**
 * The organization key for `npm start` and `npm run server`, and where it came from: the
 * environment (`ORGANIZATION_API_KEY`), the dev default, or a random one made now. The dev
 * default is public (it is in this repository), so it is used only where nobody else can
 * use it: the server listens on this machine only (`hostname`) *and* every page allowed to
 * call it is a page on this machine (`allowedOrigins`). Reachable from other machines, or
 * callable from any page (`ALLOWED_ORIGINS=*`), it would let anyone read every visitor's
 * thread.
 */
export function organizationKeyFromEnv(
  env: NodeJS.ProcessEnv,
  hostname: string,
  allowedOrigins: readonly string[],
): { key: string; origin: 'environment' | 'dev-default' | 'random' } {
  const set = env['ORGANIZATION_API_KEY']?.trim();
  if (set) return { key: set, origin: 'environment' };
  return isLoopback(hostname) && onlyLoopbackPages(allowedOrigins)
    ? { key: DEV_ORGANIZATION_API_KEY, origin: 'dev-default' }
    : { key: `org_${randomHex(24)}`, origin: 'random' };
}

/** Compared in constant time: how long a refusal takes says nothing about the key. */
function sameKey(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The organization key of the request: absent, or a 401 when wrong (a failed attempt: its
 * address pays for it, failures.ts); the organization's rate applies.
 */
async function organization(deps: Deps, c: Context, given: string | undefined): Promise<boolean> {
  if (given === undefined) return false;
  if (!sameKey(given, deps.organizationApiKey)) {
    throw await failed(deps, c, new ApiError(401, 'auth.invalid_api_key', 'The organization API key is not valid.'));
  }
  const wait = await deps.stores.rates.take('organization', deps.organizationRate, Date.now());
  if (wait) {
    throw new ApiError(429, 'rate_limited', `Too many requests for this organization; try again in ${wait} s.`, null, {
      'Retry-After': String(wait),
    });
  }
  return true;
}

const loginBodySchema = z
  .strictObject(
    {
      publishable_key: z.string({ error: 'Must be a string.' }).min(1).max(200).optional(),
      agent_id: hexId.optional(),
    },
    { error: 'The body must be a JSON object.' },
  )
  .refine((body) => (body.publishable_key === undefined) !== (body.agent_id === undefined), {
    error: 'Name the agent: publishable_key or agent_id, one of them.',
    path: ['agent_id'],
  });

/**
 * `POST /management/v1/auth/login`: a dev login for builders, with the organization key,
 * naming the agent by its publishable key or id. The reference shows no login; a real
 * service's console signs its users in its own way. Returns a login session's token.
 */
export function loginRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.post('/management/v1/auth/login', async (c) => {
    if (!(await organization(deps, c, c.req.header('x-organization-api-key')))) {
      throw await failed(
        deps,
        c,
        new ApiError(401, 'auth.missing_credentials', 'Log in with the organization API key: x-organization-api-key.'),
      );
    }
    const body = await parseBody(c, loginBodySchema);
    const key =
      body.publishable_key !== undefined
        ? await deps.stores.keys.get(body.publishable_key)
        : (await deps.stores.keys.forAgent(body.agent_id!.toLowerCase()))[0];
    if (!key) throw notFound('Agent');
    const token = await mintToken(deps, key, LOGIN_TOKEN_TTL_S, LOGIN_SCOPE);
    return c.json({ access_token: token, token_type: 'Bearer', expires_in: LOGIN_TOKEN_TTL_S, scope: LOGIN_SCOPE, agent_id: key.agentId });
  });
  return app;
}

/** Every management request but the token exchange and the login: who is asking, or 401/403. */
export function managementAuth(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    if (await organization(deps, c, c.req.header('x-organization-api-key'))) {
      c.set('manager', { kind: 'organization' });
      return next();
    }
    const challenge = { 'WWW-Authenticate': 'Bearer' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!match) {
      throw new ApiError(
        401,
        'auth.missing_credentials',
        'Management needs the organization API key (x-organization-api-key) or a login session token (Authorization: Bearer).',
        null,
        challenge,
      );
    }
    const checked = await checkToken(deps, match[1]!);
    if (checked.error) throw new ApiError(401, checked.error.code, checked.error.message, null, challenge);
    if (!checked.scopes!.has('management')) {
      throw new ApiError(
        403,
        'auth.insufficient_scope',
        'This token serves messaging only: management needs a login session (POST /management/v1/auth/login).',
      );
    }
    const key = checked.key!;
    const limited = await rateLimited(deps, key);
    if (limited) throw limited;
    c.set('manager', { kind: 'agent', key });
    return next();
  };
}

/** Whether `manager` may see an agent and its threads; one it may not see is reported as missing. */
export const sees = (manager: Manager, agentId: string): boolean => manager.kind === 'organization' || manager.key.agentId === agentId;
