import type { Agent, Catalog } from './agents/demo-agent.js';
import type { RateBucket } from './store/limits.js';
import type { HostRule } from './http/hosts.js';
import type { OriginRule } from './http/origins.js';
import type { KeyRecord, Store } from './store/store.js';

/** Everything one app instance owns; two apps in one process share nothing. */
export interface Deps {
  store: Store;
  agent: Agent;
  /** The demo shop's products (its image routes serve them whoever answers). */
  catalog: Catalog;
  /** HS256 key of this instance, random per process start: tokens never outlive a restart. */
  secret: Uint8Array;
  /** Default milliseconds between streamed frames (a key's `paceMs` overrides it). */
  paceMs: number;
  /** Pages that may call the server (origins.ts). */
  origins: OriginRule;
  /** Names the server answers to (hosts.ts). */
  hosts: HostRule;
  /** The organization API key management accepts (management-auth.ts), and its rate. */
  organizationApiKey: string;
  organizationBucket: RateBucket;
}

/** What the auth middleware learned from the bearer token. */
export interface Caller {
  key: KeyRecord;
  /** The token's `sub`: the agent every thread of this request must belong to. */
  agentId: string;
}

// Declared on Hono's own variable map rather than as an app Env type, so `createApp()` stays
// a plain `Hono` that the Vite and test-runner adapters accept as is.
declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
    caller: Caller;
  }
}
