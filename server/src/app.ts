import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { DemoAgent, loadCatalog, PLAIN_AGENT, type Agent } from './agents/demo-agent.js';
import { applyAgents, type AgentsConfig, type Applied } from './agents/config.js';
import { ModelAgent, type ModelSettings } from './agents/model-agent.js';
import { authRoutes, bearerAuth } from './auth/tokens.js';
import { resolveSigning, type SigningSettings, type SigningSource } from './auth/signing.js';
import { FAILURE_LIMITS, type FailureLimits } from './auth/failures.js';
import { DEMO_AGENT_ID, DEMO_PROJECT_ID, DEMO_VERSION_IDS, newDemoAgent } from './agents/versions.js';
import { FaultKnobs } from './faults/index.js';
import { PLAIN_TAPS } from './messaging/taps.js';
import { SessionPlaces } from './messaging/places.js';
import { LiveTurns } from './messaging/live.js';
import { interruptUnfinished } from './messaging/recover.js';
import { Budgets } from './store/budgets.js';
import { MEMORY, type Db } from './store/db.js';
import { openStores, storesOn } from './store/index.js';
import { LEASE_MS } from './store/turns.js';
import { HEARTBEAT_MS } from './messaging/sse.js';
import { ORGANIZATION_RATE, type KeyLimits } from './store/limits.js';
import { loginRoutes, managementAuth } from './auth/management-auth.js';
import { managementRoutes } from './management/routes.js';
import { demoImageRoutes } from './agents/images.js';
import type { Deps } from './deps.js';
import { ApiError, errorResponse } from './http/errors.js';
import { messagingRoutes } from './messaging/routes.js';
import { healthRoutes } from './http/health.js';
import { MAX_BODY_BYTES } from './http/schemas.js';
import { hostGate, hostRule } from './http/hosts.js';
import { newRequestId, randomHex } from './http/ids.js';
import { originGate, originRule } from './http/origins.js';
import { attachSessionServer, type SessionServer, type UpgradeServer } from './messaging/session.js';
export { DEV_ORGANIZATION_API_KEY } from './auth/management-auth.js';

/** The publishable key of the demo shop; always valid, never carries faults. */
export const DEMO_PUBLISHABLE_KEY = 'pk_demo_shop';

/** Per-key limits that differ from the defaults (limits.ts), for `createReferenceServer({ limits })`. */
export interface LimitOptions {
  /** The public demo key's. */
  demo?: Partial<KeyLimits>;
  /** Each minted key's, before its plan's own `limits`. */
  minted?: Partial<KeyLimits>;
  /** Bytes all minted keys hold together (default MINTED_KEYS_BYTES). */
  mintedTogether?: number;
  /** The organization API key's rate (default ORGANIZATION_RATE). */
  organization?: { perSecond: number; burst: number };
  /** What failed credentials may cost (default FAILURE_LIMITS, auth/failures.ts). */
  failures?: FailureLimits;
}

export interface AppOptions {
  /** Milliseconds between streamed frames: the demo agent's typing pace (default 25). */
  paceMs?: number;
  /**
   * Milliseconds a running turn's lease lasts unless its instance renews it (default
   * LEASE_MS, 30 s): how long after an instance dies its turns end as interrupted, for their
   * followers on the others too (`TURN_LEASE_MS`).
   */
  leaseMs?: number;
  /** Milliseconds a stream may be silent before it gets a comment that keeps proxies from closing it (default HEARTBEAT_MS, 15 s). */
  heartbeatMs?: number;
  /**
   * Answer with a model behind an OpenAI-compatible API instead of the scripted demo agent
   * (`modelSettingsFromEnv()` reads them from `OPENAI_BASE_URL`, `OPENAI_API_KEY`,
   * `AGENT_MODEL`). Absent: the demo agent, whatever the environment says.
   */
  model?: ModelSettings | null;
  /** Who answers, given whole (a test's agent); wins over `model`. */
  agent?: Agent;
  /**
   * A server for production (`NODE_ENV=production`): the fault knobs refused, no `/__demo`
   * routes, and no scripted shop agent or demo key unless `demo` asks for them; something
   * must answer (a `model`, or the demo).
   */
  production?: boolean;
  /** Seed the demo shop's agent and its publishable key `pk_demo_shop` (default: not in production). */
  demo?: boolean;
  /** Agents their operator defined (`AGENTS_FILE`, agents/config.ts), applied at start. */
  agents?: AgentsConfig;
  /**
   * The server is behind a proxy that writes `X-Forwarded-For` (`TRUST_PROXY=1`): a client's
   * address, which failed credentials are counted by, is its first entry.
   */
  trustProxy?: boolean;
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
  /**
   * Where everything is kept (store/db.ts): `memory://` (the default: nothing outlives the
   * process), a folder for the embedded PostgreSQL (`DATA_DIR`), or a PostgreSQL server's
   * `postgres://…` URL (`DATABASE_URL`).
   */
  database?: string;
  /** An open database to use instead of `database` (tests share one between servers); left open by `close()`. */
  db?: Db;
  /**
   * Called with one record per request once its response starts (a stream's when its
   * headers go): time, `request_id`, method, path (no query), status, `duration_ms`, the
   * publishable key. `agent-chat-server` writes each as a JSON line; unset, nothing is logged.
   */
  log?: (record: RequestLog) => void;
  /**
   * The signing key's settings (auth/signing.ts): `SIGNING_KEY`, `SIGNING_KEY_FILE`,
   * `SIGNING_KEYS_PREVIOUS`. Unset, the server keeps a key of its own: in the data folder,
   * in the database when it is a server, or in memory for `memory://`.
   */
  signing?: SigningSettings;
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
  /** Where it keeps what it keeps, for the start-up banner. */
  database: string;
  /** Where its signing key came from. */
  signing: SigningSource;
  /** Turns a stopped process had left running, ended as interrupted at this start. */
  interrupted: number;
  /** What applying `agents` did. */
  agents?: Applied;
  /**
   * Stops: no new turn is admitted (503 `server.shutting_down`) and readiness fails, the
   * turns running are given `graceMs` to end, those still running then end as interrupted
   * (recorded, and told to their clients), what is pending is written and the database
   * closed (a database passed in stays open). Open WebSocket sessions are the caller's to
   * close (`attachSessions` returns them).
   */
  shutdown(graceMs?: number): Promise<void>;
  /** `shutdown(0)`. */
  close(): Promise<void>;
}

/** What the request log records of one request (`AppOptions.log`). */
export interface RequestLog {
  time: string;
  level: 'info' | 'warn' | 'error';
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  publishable_key?: string;
}

/**
 * The reference server with both transports: the HTTP app and the WebSocket session over
 * one shared state. Opens (and migrates) its database, ends the turns a stopped process
 * left running, and seeds the demo agent and key; each call builds an independent instance.
 */
export async function createReferenceServer(options: AppOptions = {}): Promise<ReferenceServer> {
  const production = options.production ?? false;
  const withDemo = options.demo ?? !production;
  if (production && options.faults)
    throw new Error('The fault knobs are for tests: a production server has none (REFERENCE_FAULTS=1 with NODE_ENV=production).');
  if (production && !options.model && !options.agent && !withDemo) {
    throw new Error('Nothing would answer: set OPENAI_BASE_URL and AGENT_MODEL for a model (or DEMO_AGENT=1 for the scripted demo agent).');
  }
  const location = options.database ?? MEMORY;
  const opened = options.db
    ? await storesOn(options.db, { limits: options.limits, leaseMs: options.leaseMs })
    : await openStores(location, { limits: options.limits, leaseMs: options.leaseMs });
  try {
    // The fault knobs are a layer around the server (faults/), present only when asked for.
    const knobs = options.faults ? new FaultKnobs() : undefined;
    const stores = knobs ? knobs.stores(opened) : opened;
    const demo = withDemo ? new DemoAgent(loadCatalog(), options.paceMs ?? 25) : undefined;
    const live = new LiveTurns();
    const budgets = new Budgets(stores, {
      limited: knobs && ((key) => knobs.limited(key)),
      settled: knobs && ((key) => (key.kind === 'minted' ? knobs.minted.settle(key.key) : Promise.resolve())),
    });
    knobs?.keep(stores, (key) => budgets.runningOf(key), options.limits?.mintedTogether);
    const embeddedFolder = stores.db.kind === 'embedded' && location !== MEMORY && !options.db ? location : undefined;
    const signing = await resolveSigning(options.signing ?? {}, {
      dataDir: embeddedFolder,
      settings: stores.db.kind === 'postgres' ? stores.settings : undefined,
    });
    // An embedded database this server opened is its alone: whatever runs in it was left by
    // the last process. One handed to it (`db`) may be another server's too: leases decide.
    const interrupted = await interruptUnfinished(stores, { all: stores.db.kind === 'embedded' && !options.db });
    // On a shared server, another instance may stop without its turns: theirs lapse and are ended here.
    const sweeper =
      stores.db.kind === 'postgres'
        ? setInterval(
            () => void interruptUnfinished(stores).catch((error: unknown) => console.error('turns: a sweep failed', error)),
            options.leaseMs ?? LEASE_MS,
          )
        : undefined;
    sweeper?.unref?.();
    if (demo) {
      await stores.agents.ensure(
        newDemoAgent({ id: DEMO_AGENT_ID, projectId: DEMO_PROJECT_ID, name: 'Trailhead shop assistant', versionIds: DEMO_VERSION_IDS }),
      );
      await stores.keys.ensure({ key: DEMO_PUBLISHABLE_KEY, agentId: DEMO_AGENT_ID, kind: 'demo', plan: {} });
    }
    const applied = options.agents ? await applyAgents(stores, options.agents) : undefined;
    const agent: Agent = options.agent ?? (options.model ? new ModelAgent(options.model, demo ?? PLAIN_AGENT) : demo!);
    const deps: Deps = {
      stores,
      budgets,
      live,
      agentFor: knobs ? knobs.agentFor(agent) : () => agent,
      catalog: demo?.catalog,
      signing,
      origins: originRule(options.allowedOrigins),
      hosts: hostRule(options.allowedHosts),
      organizationApiKey: options.organizationApiKey ?? `org_${randomHex(24)}`,
      organizationRate: options.limits?.organization ?? ORGANIZATION_RATE,
      failureLimits: options.limits?.failures ?? FAILURE_LIMITS,
      trustProxy: options.trustProxy ?? false,
      heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
      clock: knobs ? (key) => knobs.clock(key) : () => Date.now(),
      taps: knobs ? knobs.taps() : PLAIN_TAPS,
      sessions: new SessionPlaces(),
      lifecycle: { stopping: false },
    };
    return {
      app: buildApp(deps, knobs, options.log, { production }),
      attachSessions: (server) => attachSessionServer(server, deps),
      agent: agent.description,
      organizationApiKey: deps.organizationApiKey,
      database: stores.db.description,
      signing: signing.source,
      interrupted,
      agents: applied,
      shutdown,
      close: () => shutdown(0),
    };

    async function shutdown(graceMs = 0): Promise<void> {
      if (deps.lifecycle.stopping) return;
      deps.lifecycle.stopping = true;
      clearInterval(sweeper);
      budgets.close();
      const ended = () => Promise.allSettled(live.all().map((turn) => turn.result));
      // Every turn admitted before is in `live` by now or about to be (one still writing its
      // record is counted by `budgets` and joins `live` a moment later): the grace period is
      // theirs, whenever they joined.
      const deadline = performance.now() + graceMs;
      while ((live.size || budgets.total) && performance.now() < deadline) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([ended(), new Promise((resolve) => (timer = setTimeout(resolve, Math.min(100, deadline - performance.now()))))]);
        clearTimeout(timer);
      }
      for (const turn of live.all()) turn.interrupt();
      await ended();
      await stores.turns.flush();
      if (!options.db) await opened.close();
    }
  } catch (error) {
    if (!options.db) await opened.close().catch(() => {});
    throw error;
  }
}

/**
 * The reference server's HTTP routes alone (no WebSocket session: use
 * `createReferenceServer()` for both).
 */
export async function createApp(options: AppOptions = {}): Promise<Hono> {
  return (await createReferenceServer(options)).app;
}

function buildApp(deps: Deps, knobs: FaultKnobs | undefined, log: AppOptions['log'], { production }: { production: boolean }): Hono {
  const app = new Hono();

  app.use(requestId({ headerName: 'x-request-id', generator: newRequestId }));
  if (log) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      const status = c.res.status;
      log({
        time: new Date().toISOString(),
        level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
        request_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(c.get('caller') ? { publishable_key: c.get('caller').key.key } : {}),
      });
    });
  }
  // For load balancers and orchestrators, before the gates: a probe calls by address, without a page.
  app.route('/', healthRoutes(deps));
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
  // Before the service's body limit: fault plans have their own.
  knobs?.mount(app, deps, 'routes');
  const started = Date.now();
  if (!production)
    app.get('/__demo/health', async (c) => {
      const totals = await deps.stores.threads.totals();
      return c.json({
        status: 'ok',
        uptime_s: Math.round((Date.now() - started) / 1000),
        threads: totals.threads,
        keys: await deps.stores.keys.count(),
        bytes: totals.bytes,
      });
    });
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => errorResponse(c, new ApiError(413, 'payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`)),
    }),
  );

  knobs?.mount(app, deps, 'exchange');
  app.route('/', authRoutes(deps));
  app.route('/', loginRoutes(deps));
  // Its routes', not the prefix's: an unknown management path stays a 404, credentials or not.
  const manager = managementAuth(deps);
  app.use('/management/v1/*', (c, next) =>
    /^\/management\/v1\/(threads|interactions|agents)(\/|$)/.test(c.req.path) ? manager(c, next) : next(),
  );
  app.route('/management/v1', managementRoutes(deps));
  // The demo shop's product pictures, while its agent answers.
  if (deps.catalog) app.route('/', demoImageRoutes(deps.catalog));
  knobs?.mount(app, deps, 'before');
  app.use('/messaging/*', bearerAuth(deps));
  knobs?.mount(app, deps, 'after');
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
