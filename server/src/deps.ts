import type { Agent, Catalog } from './agents/demo-agent.js';
import type { FailureLimits } from './auth/failures.js';
import type { Signing } from './auth/signing.js';
import type { HostRule } from './http/hosts.js';
import type { OriginRule } from './http/origins.js';
import type { LiveTurns } from './messaging/live.js';
import type { SessionPlaces } from './messaging/places.js';
import type { Taps } from './messaging/taps.js';
import type { Budgets } from './store/budgets.js';
import type { Stores } from './store/index.js';
import type { KeyRecord } from './store/records.js';

/** Everything one server instance owns; two in one process share nothing but what their stores share. */
export interface Deps {
  stores: Stores;
  budgets: Budgets;
  /** The turns this process runs, and the ones it has just finished (messaging/live.ts). */
  live: LiveTurns;
  /** Who answers a key's turns, welcome and suggestions (the configured agent; a test's wrapper of it). */
  agentFor(key: KeyRecord): Agent;
  /** The demo shop's products, while the demo agent is there (its image routes serve them whoever answers). */
  catalog: Catalog | undefined;
  /** The keys tokens and list cursors are signed with (auth/signing.ts). */
  signing: Signing;
  /** Pages that may call the server (origins.ts). */
  origins: OriginRule;
  /** Names the server answers to (hosts.ts). */
  hosts: HostRule;
  /** The organization API key management accepts (management-auth.ts), and its rate. */
  organizationApiKey: string;
  organizationRate: { perSecond: number; burst: number };
  /** What failed credentials may cost, per client address and for everyone (auth/failures.ts). */
  failureLimits: FailureLimits;
  /** Take the client's address from `X-Forwarded-For` (a proxy in front writes it). */
  trustProxy: boolean;
  /** The time on a key's clock, in ms (tokens are minted and checked, its rate counted, at it): `Date.now()`, or a test's. */
  clock(key: KeyRecord): number;
  /** A connection's seams (messaging/taps.ts): plain, or a test's fault knobs. */
  taps: Taps;
  /** The WebSocket sessions open here, by key and token (messaging/places.ts). */
  sessions: SessionPlaces;
  /** How long a stream may be silent before it gets a comment (messaging/sse.ts, HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Set once the server is stopping (`ReferenceServer.shutdown`): no new turn starts, readiness fails. */
  lifecycle: { stopping: boolean };
}

/** What the auth middleware learned from the bearer token. */
export interface Caller {
  key: KeyRecord;
  /** The token's `sub`: the agent every thread of this request must belong to. */
  agentId: string;
  /** The token's `jti`: the session of the client that holds it. */
  session: string;
  /**
   * The token's `uid`: the visitor (`user_id`) it was exchanged for, if any. Its requests
   * speak for that user only, and open only threads of no visitor or of this one.
   */
  visitor?: string;
  /** A login session's token (`management` scope): it opens every visitor's threads of its agent. */
  everyVisitor?: boolean;
}

// Declared on Hono's own variable map rather than as an app Env type, so `createApp()` stays
// a plain `Hono` that the Vite and test-runner adapters accept as is.
declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
    caller: Caller;
  }
}
