import type { Context, Hono } from 'hono';
import type { Agent } from '../agents/demo-agent.js';
import { checkToken } from '../auth/tokens.js';
import type { Deps } from '../deps.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { parseJson } from '../http/validate.js';
import type { Taps } from '../messaging/taps.js';
import type { Stores } from '../store/index.js';
import type { KeyRecord } from '../store/records.js';
import { FaultyAgent } from './agent.js';
import { faultyConnection } from './connections.js';
import { MintedKeys } from './minted.js';
import type { FaultPlan, KeyStats } from './plan.js';
import { demoKeyRoutes } from './routes.js';
import { FaultBook } from './state.js';
import { faultyStores } from './stores.js';

/**
 * The fault knobs (plan.ts), for tests only: a layer around the server, not a part of it.
 * It wraps the ports (the stores, the agent, each connection's taps, the clock) and adds
 * HTTP middleware in front of the routes; the server's own code reads no plan. A server
 * built without `faults: true` has none of it: no `/__demo/keys`, no minted keys, no knob.
 */
export class FaultKnobs {
  readonly book = new FaultBook();
  minted!: MintedKeys;

  /** The stores as the knobs see them (faulty stores' counters and per-key settings). */
  stores(stores: Stores): Stores {
    return faultyStores(stores, this.book);
  }

  /** Starts keeping minted keys within their bounds together (once the stores and budgets exist). */
  keep(stores: Stores, running: (key: string) => number, together?: number): void {
    this.minted = new MintedKeys(stores, running, this.book, together);
  }

  agentFor(inner: Agent): (key: KeyRecord) => Agent {
    return (key) => (key.kind === 'minted' ? new FaultyAgent(inner, key.plan as FaultPlan, this.book.of(key)) : inner);
  }

  clock(key: KeyRecord): number {
    return this.book.now(key);
  }

  /** A budget's refusal (too many turns running) counts in the key's stats. */
  limited(key: KeyRecord): void {
    if (key.kind === 'minted') this.book.of(key).stats.limited += 1;
  }

  taps(): Taps {
    const book = this.book;
    return {
      stream(_c, key, resuming) {
        if (key.kind !== 'minted') return faultyConnection({}, 0);
        const plan = key.plan as FaultPlan;
        const state = book.of(key);
        const connection = state.stats.streamConnections++;
        // `rawTurns[i]`: the i-th streamed turn of the key (resumes are not turns).
        const raw = resuming ? undefined : plan.rawTurns?.[state.streamedTurns++];
        return faultyConnection(plan, connection, raw);
      },
      session(key) {
        if (key.kind !== 'minted') return { connection: faultyConnection({}, 0), answersPing: true };
        const plan = key.plan as FaultPlan;
        const state = book.of(key);
        if (state.budget.unauthorized > 0) {
          state.budget.unauthorized -= 1;
          return { refusal: revoked(), connection: faultyConnection({}, 0), answersPing: true };
        }
        const connection = state.stats.socketConnections++;
        return {
          dropBeforeReady: plan.dropAfter?.[connection] === 0,
          connection: faultyConnection(plan, connection),
          answersPing: !plan.deafSession,
          frame(type, frame, lastEventId) {
            book.record(key, { method: 'WS', path: '/messaging/v1/session', lastEventId, body: frame });
            if (type === 'resume' && plan.unresumable) return notResumable();
            return undefined;
          },
        };
      },
    };
  }

  /**
   * The request knobs, in front of the routes: the requests' log, `unauthorized`,
   * `tokenExchangeFailures`, `fail`, `intakeDelayMs`, `unresumable`, `holdStream`,
   * `threadFrameDelayMs`, `streamWithoutCors`, `rawTranscript`, and the stats they count.
   * `before` goes ahead of the bearer check (a request with an expired token is logged
   * too); `after` behind it. `routes` goes ahead of the service's body limit (a plan may be
   * megabytes), `exchange` behind it, ahead of the token exchange.
   */
  mount(app: Hono, deps: Deps, where: 'routes' | 'exchange' | 'before' | 'after'): void {
    const book = this.book;
    if (where === 'routes') {
      app.route('/', demoKeyRoutes(deps, this.minted, book));
      // A minted key used: it is the last to go, and the minted keys together stay bounded.
      app.use('*', async (c, next) => {
        await next();
        const key = c.get('caller')?.key;
        if (key?.kind === 'minted') await this.minted.used(key);
      });
      return;
    }
    if (where === 'exchange') {
      app.post('/management/v1/auth/token', async (c, next) => {
        const pk = await bodyField(c, 'publishable_key');
        const key = typeof pk === 'string' ? await deps.stores.keys.get(pk) : undefined;
        if (key?.kind !== 'minted') return next();
        await record(c, key);
        const state = book.of(key);
        if (state.budget.tokenExchangeFailures > 0) {
          state.budget.tokenExchangeFailures -= 1;
          throw new ApiError(401, 'auth.invalid_key', 'The publishable key was rejected.');
        }
        const injected = injectedFailure(c, key);
        if (injected) return injected;
        await next();
        if (c.res.ok) state.stats.tokensIssued += 1;
        await this.minted.used(key);
      });
      return;
    }
    if (where === 'before') {
      app.use('/messaging/*', async (c, next) => {
        const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
        // The signature was good (an expired token's too): the request belongs to its key's log.
        const key = token ? (await checkToken(deps, token)).key : undefined;
        if (key?.kind === 'minted') {
          await record(c, key);
          const state = book.of(key);
          if (state.budget.unauthorized > 0) {
            state.budget.unauthorized -= 1;
            throw revoked();
          }
        }
        return next();
      });
      return;
    }
    app.use('/messaging/*', async (c, next) => {
      const key = c.get('caller').key;
      if (key.kind !== 'minted') return next();
      const plan = key.plan as FaultPlan;
      const injected = injectedFailure(c, key);
      if (injected) return injected;
      const path = c.req.path;
      const stream = path === '/messaging/v1/messages/stream';
      const resuming = c.req.header('last-event-id') !== undefined;
      if (stream && resuming && plan.unresumable) throw notResumable();
      // `intakeDelayMs`: a request that would start a turn waits, and one whose client went leaves nothing behind.
      if (plan.intakeDelayMs && (path === '/messaging/v1/messages' || (stream && !resuming))) {
        await new Promise((resolve) => setTimeout(resolve, plan.intakeDelayMs));
        if (c.req.raw.signal.aborted) return c.body(null, 499 as 200);
      }
      await next();
      if (stream && c.res.ok) {
        if (plan.holdStream) {
          // No answer at all until the client gives up (the turn runs regardless).
          await c.res.body?.cancel();
          await new Promise<void>((resolve) => c.req.raw.signal.addEventListener('abort', () => resolve(), { once: true }));
          c.res = new Response(null, { status: 499 });
          return;
        }
        // `threadFrameDelayMs`: the turn runs, its answer (headers, then the `thread` frame) waits.
        if (plan.threadFrameDelayMs) await new Promise((resolve) => setTimeout(resolve, plan.threadFrameDelayMs));
        // `streamWithoutCors`: a page on another origin sends the request but may not read the answer.
        if (plan.streamWithoutCors) c.res.headers.delete('access-control-allow-origin');
      }
      if (
        plan.rawTranscript !== undefined &&
        c.req.method === 'GET' &&
        /^\/messaging\/v1\/threads\/[^/]+\/messages$/.test(path) &&
        c.res.ok
      ) {
        c.res = c.json(plan.rawTranscript as object);
      }
    });

    async function record(c: Context, key: KeyRecord): Promise<void> {
      let body: unknown = null;
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
        // Read as text: Hono keeps it, so the route can still read (and validate) it afterwards.
        const raw = await c.req.text();
        try {
          body = raw ? (JSON.parse(raw) as unknown) : null;
        } catch {
          body = raw;
        }
      }
      book.record(key, { method: c.req.method, path: c.req.path, lastEventId: c.req.header('last-event-id') ?? null, body });
    }

    /** The `fail` knob: the first entry with budget left whose `path` matches fails this request (by default, messaging ones only). */
    function injectedFailure(c: Context, key: KeyRecord): Response | undefined {
      const path = c.req.path;
      const entries = (key.plan as FaultPlan).fail ?? [];
      const budget = book.of(key).budget;
      for (const [i, entry] of entries.entries()) {
        if (budget.fail[i]! <= 0) continue;
        const matches = entry.path !== undefined ? path.includes(entry.path) : path.startsWith('/messaging/');
        if (!matches) continue;
        budget.fail[i]! -= 1;
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
  }

  /** A minted key's stats as `GET /__demo/keys/{key}/stats` reports them. */
  stats(key: KeyRecord): KeyStats {
    return this.book.of(key).stats;
  }
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

const revoked = () => new ApiError(401, 'auth.invalid_token', 'The access token has been revoked.', null, { 'WWW-Authenticate': 'Bearer' });
const notResumable = () => new ApiError(409, 'stream.not_resumable', 'There is no turn of this thread to resume.');

/** A field of a JSON body, read without consuming it for the route. */
async function bodyField(c: Context, name: string): Promise<unknown> {
  try {
    // The route's own parsing (a NUL refused as it would be: never looked up) answers for a body that fails it.
    const body = parseJson(await c.req.text()) as Record<string, unknown>;
    return body?.[name];
  } catch {
    return undefined;
  }
}
