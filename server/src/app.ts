import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { DemoAgent, loadCatalog } from './agents/demo-agent.js';
import { ModelAgent, type ModelSettings } from './agents/model-agent.js';
import { authRoutes, bearerAuth } from './auth/tokens.js';
import { ORGANIZATION_RATE, RateBucket } from './store/limits.js';
import { loginRoutes, managementAuth } from './auth/management-auth.js';
import { managementRoutes } from './management/routes.js';
import { demoKeyRoutes } from './faults/routes.js';
import { demoImageRoutes } from './agents/images.js';
import type { Deps } from './deps.js';
import { ApiError, errorResponse } from './http/errors.js';
import { messagingRoutes } from './messaging/routes.js';
import { MAX_BODY_BYTES } from './http/schemas.js';
import { hostGate, hostRule } from './http/hosts.js';
import { randomHex } from './http/ids.js';
import { originGate, originRule } from './http/origins.js';
import { attachSessionServer, type SessionServer, type UpgradeServer } from './messaging/session.js';
import { newRequestId, Store, type LimitOptions } from './store/store.js';

export { DEMO_PUBLISHABLE_KEY } from './store/store.js';
export { DEV_ORGANIZATION_API_KEY } from './auth/management-auth.js';

export interface AppOptions {
  /** Milliseconds between streamed frames: the demo agent's typing pace (default 25). */
  paceMs?: number;
  /**
   * Answer with a model behind an OpenAI-compatible API instead of the scripted demo agent
   * (`modelSettingsFromEnv()` reads them from `OPENAI_BASE_URL`, `OPENAI_API_KEY`,
   * `AGENT_MODEL`). Absent: the demo agent, whatever the environment says.
   */
  model?: ModelSettings | null;
  /**
   * Mount the fault knobs (`/__demo/keys`: keys minted with fault plans, their stats and
   * clocks; demo-keys.ts). Off unless asked: with them anyone who reaches the server can
   * mint keys that misbehave on purpose and read the requests made with those keys. The
   * test runner and the benchmarks ask; `npm start` and `npm run server` ask only without a
   * model, or with `REFERENCE_FAULTS=1` (faultsFromEnv()).
   */
  faults?: boolean;
  /**
   * Pages that may call the server (CORS and the WebSocket upgrade; origins.ts): origins,
   * `scheme://host:*` for any port, `null`, or `*`. Default: pages on this machine
   * (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`); the server's own origin
   * always. `npm run server` reads `ALLOWED_ORIGINS` (originsFromEnv()).
   */
  allowedOrigins?: readonly string[];
  /**
   * Names the server answers to besides IP addresses and `localhost` (the `Host` header;
   * hosts.ts): `shop.example`, `.shop.example` for its subdomains too, or `*` for any. A
   * request for another name is refused (421), which is what stops a DNS-rebinding page.
   * `npm run server` reads `ALLOWED_HOSTS` and adds `HOST` when it is a name (hostsFromEnv()).
   */
  allowedHosts?: readonly string[];
  /**
   * Per-key limits other than the defaults (limits.ts): the demo key's, and every minted
   * key's before its plan's own `limits` knob.
   */
  limits?: LimitOptions;
  /**
   * The organization API key management accepts (`x-organization-api-key`; it also logs
   * builders in: `POST /management/v1/auth/login`). Default: a random key made for this
   * instance (`ReferenceServer.organizationApiKey` tells it). `npm start` and `npm run server`
   * read `ORGANIZATION_API_KEY`, and use the dev default `DEV_ORGANIZATION_API_KEY` only while
   * nothing but this machine can reach the server (organizationKeyFromEnv()).
   */
  organizationApiKey?: string;
}

/** Whether `npm start` / `npm run server` mount the fault knobs: `REFERENCE_FAULTS` decides, else only without a model. */
export function faultsFromEnv(model: ModelSettings | null, env: NodeJS.ProcessEnv = process.env): boolean {
  const asked = env['REFERENCE_FAULTS']?.trim();
  return asked ? asked === '1' || asked === 'true' : !model;
}

export interface ReferenceServer {
  /** The HTTP routes: hand it to a Node adapter (node.ts) or call `app.fetch`. */
  app: Hono;
  /**
   * Serves the WebSocket session (`/messaging/v1/session`, session.ts) on a Node HTTP
   * server, sharing the app's store, keys and tokens. Other upgrades are left alone.
   */
  attachSessions(server: UpgradeServer): SessionServer;
  /** Who answers, for the start-up banner. */
  agent: string;
  /** The organization API key management accepts: the one passed in, or the one made for this instance. */
  organizationApiKey: string;
}

/**
 * The reference server with both transports: the HTTP app and the WebSocket session over
 * one shared state. Each call builds an independent instance.
 */
export function createReferenceServer(options: AppOptions = {}): ReferenceServer {
  const demo = new DemoAgent(loadCatalog());
  const deps: Deps = {
    store: new Store(options.limits),
    agent: options.model ? new ModelAgent(options.model, demo) : demo,
    catalog: demo.catalog,
    secret: crypto.getRandomValues(new Uint8Array(32)),
    paceMs: options.paceMs ?? 25,
    origins: originRule(options.allowedOrigins),
    hosts: hostRule(options.allowedHosts),
    organizationApiKey: options.organizationApiKey ?? `org_${randomHex(24)}`,
    organizationBucket: new RateBucket(options.limits?.organization ?? ORGANIZATION_RATE),
  };
  return {
    app: buildApp(deps, options.faults ?? false),
    attachSessions: (server) => attachSessionServer(server, deps),
    agent: deps.agent.description,
    organizationApiKey: deps.organizationApiKey,
  };
}

/**
 * The reference messaging server: the service's messaging surface, token exchange and
 * management surface with a scripted demo agent, plus (when asked) the `/__demo` fault knobs. Each call builds an independent
 * instance (own store, own signing secret); nothing happens at import. HTTP only: use
 * `createReferenceServer()` for the WebSocket session too.
 */
export function createApp(options: AppOptions = {}): Hono {
  return createReferenceServer(options).app;
}

function buildApp(deps: Deps, faults: boolean): Hono {
  const app = new Hono();

  app.use(requestId({ headerName: 'x-request-id', generator: newRequestId }));
  // Before anything else: a request for a name that is not the server's (a DNS-rebinding
  // page) must not reach even the origin gate, which trusts the server's origin from `Host`.
  app.use(hostGate(deps.hosts));
  // A widget on another allowed origin must reach the server and read the request id; a
  // page on any other origin is refused before anything runs, its preflight included.
  app.use(originGate(deps.origins));
  app.use(
    cors({
      origin: (origin, c) => (origin && deps.origins(origin, new URL(c.req.url).origin) ? origin : null),
      allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
      allowHeaders: [
        'Authorization',
        'Content-Type',
        'Last-Event-ID',
        'Idempotency-Key',
        'Accept',
        'x-request-id',
        'x-organization-api-key',
      ],
      exposeHeaders: ['x-request-id', 'Retry-After'],
      maxAge: 600,
    }),
  );
  // The `streamWithoutCors` knob (faults.ts): after the route, once CORS headers are on the response.
  app.use('/messaging/v1/messages/stream', async (c, next) => {
    await next();
    if (c.get('caller')?.key.plan.streamWithoutCors) c.res.headers.delete('access-control-allow-origin');
  });
  // Before the service's body limit: fault plans have their own.
  if (faults) app.route('/', demoKeyRoutes(deps));
  const started = Date.now();
  app.get('/__demo/health', (c) =>
    c.json({
      status: 'ok',
      uptime_s: Math.round((Date.now() - started) / 1000),
      threads: deps.store.threads.size,
      keys: deps.store.keys.size,
      bytes: deps.store.bytes,
    }),
  );
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => errorResponse(c, new ApiError(413, 'payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`)),
    }),
  );

  app.route('/', authRoutes(deps));
  app.route('/', loginRoutes(deps));
  // Its routes', not the prefix's: an unknown management path stays a 404, credentials or not.
  const manager = managementAuth(deps);
  app.use('/management/v1/*', (c, next) =>
    /^\/management\/v1\/(threads|interactions|agents)(\/|$)/.test(c.req.path) ? manager(c, next) : next(),
  );
  app.route('/management/v1', managementRoutes(deps));
  app.route('/', demoImageRoutes(deps.catalog));
  app.use('/messaging/*', bearerAuth(deps));
  app.route('/messaging/v1', messagingRoutes(deps));

  app.notFound((c) => errorResponse(c, new ApiError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof HTTPException) {
      return errorResponse(c, new ApiError(error.status as 400, error.status === 413 ? 'payload_too_large' : 'bad_request', error.message));
    }
    console.error('reference server: unhandled error', error);
    return errorResponse(c, new ApiError(500, 'internal_error', 'Something went wrong on our side.'));
  });

  return app;
}
