import type { Message } from '@agent-chat/wire';
import { ApiError } from '../http/errors.js';
import type { FaultPlan, KeyStats } from '../faults/plan.js';
import {
  DEMO_KEY_LIMITS,
  MAX_MESSAGES_PER_THREAD,
  MINTED_KEY_LIMITS,
  MINTED_KEYS_BYTES,
  RateBucket,
  sizeOf,
  THREAD_OVERHEAD_BYTES,
  type KeyLimits,
} from './limits.js';
import type { Turn } from '../messaging/turn.js';
import { newHexId, randomHex } from '../http/ids.js';
import {
  DEMO_AGENT_ID,
  DEMO_PROJECT_ID,
  DEMO_VERSION_IDS,
  liveVersion,
  newAgent,
  TEST_PROJECT_ID,
  type AgentRecord,
  type AgentVersion,
} from '../agents/versions.js';
import { addFacets, emptyFacets, type Facets, type Trace } from '../agents/trace.js';

export { newHexId, newRequestId } from '../http/ids.js';

/** The publishable key of the demo shop; always valid, never carries faults. */
export const DEMO_PUBLISHABLE_KEY = 'pk_demo_shop';

/** Minted keys kept at most: the least recently used go first (a key in use is never the oldest). */
const MAX_KEYS = 5000;
const MAX_RECORDED_REQUESTS = 500;
/** Traces one thread keeps (one per turn: as many as its messages can hold); the oldest go first. */
const MAX_TRACES_PER_THREAD = 1000;
/** Counted bytes of a minted key's request log at most (its bodies may be 64 KB each): the oldest entries go first. */
const MAX_RECORDED_BYTES = 1024 * 1024;
/** The fault plans of minted keys, in bytes of JSON, at most together: the least recently used keys go first. */
const MAX_PLAN_BYTES_KEPT = 32 * 1024 * 1024;

export interface KeyRecord {
  key: string;
  /** Each key gets an agent of its own, so threads of parallel tests never meet. */
  agentId: string;
  agent: AgentRecord;
  plan: FaultPlan;
  /**
   * Minted through `POST /__demo/keys` (with the fault routes on): only such a key keeps a
   * log of its requests for `/stats`. The built-in demo key never does: its traffic is every
   * visitor's, not a test's.
   */
  minted: boolean;
  /** Bytes of the plan's JSON, counted against MAX_PLAN_BYTES_KEPT. */
  planBytes: number;
  stats: KeyStats;
  /** Fault budgets left; knobs that fire "the next N times" count down here. */
  budget: {
    unauthorized: number;
    tokenExchangeFailures: number;
    fail: number[];
    errorFrames: number;
  };
  /** Turns that took a scripted reply from `plan.replies`. */
  repliesUsed: number;
  /** Streamed turns so far: `plan.rawTurns` is indexed by it. */
  streamedTurns: number;
  /**
   * How far this key's clock runs ahead of the server's (`POST /__demo/keys/:key/clock`):
   * its tokens are minted and checked at that time, so a test sees a token expire without
   * waiting for it.
   */
  clockOffsetMs: number;
  limits: KeyLimits;
  bucket: RateBucket;
  /** This key's threads, least recently used first: the key forgets its own, never another's. */
  threads: Map<string, ThreadRecord>;
  /** Counted bytes its threads hold (limits.ts `sizeOf`). */
  bytes: number;
  /** Turns running now. */
  running: number;
  /** Counted bytes of `stats.requests`, entry by entry, and together. */
  logSizes: number[];
  logBytes: number;
}

export interface ThreadRecord {
  id: string;
  agentId: string;
  /** The key whose budget the thread counts against. */
  key: KeyRecord;
  /** Counted bytes: the record, its messages, its latest turn's frames. */
  bytes: number;
  userId: string;
  title: string | null;
  createdAt: string;
  /** Its last turn or change (a rename, a new turn). */
  updatedAt: string;
  /** The version of its latest turn: the agent's live one, or the one a rerun pinned. */
  versionId: string;
  versionTag: string;
  /** Made by a rerun pinned to a version: its turns keep running on it. */
  pinned: boolean;
  /** Set by management (PATCH): a caller's id for the thread; its welcome message and suggestions when changed there. */
  externalId: string | null;
  welcome: string | null;
  suggestions: string[] | null;
  messages: Message[];
  /** Each turn's trace by interaction id, oldest first; `facets` gathers what they recorded for the list's filters. */
  traces: Map<string, Trace>;
  facets: Facets;
  /** Last `seq` handed out; numbering continues across the turns of a thread. */
  lastSeq: number;
  /** Only the newest turn is kept for resume: an older one can no longer be the one a client lost. */
  latestTurn?: Turn;
  branchedFrom?: { threadId: string; interactionId: string };
  channels: Array<{ channel: string; phoneNumber: string; boundAt: string }>;
}

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
}

/** A running turn's place in its key's `runningTurns`; `done` gives it back (once). */
export interface Admission {
  done(): void;
}

/** A turn holds its thread: a thread with a running turn is never forgotten under it. */
const busy = (thread: ThreadRecord): boolean => thread.latestTurn !== undefined && !thread.latestTurn.done;

/**
 * Everything the server keeps, in memory, bounded per publishable key (limits.ts): each
 * key's threads in its own least-recently-used order and byte count, so a key that grows
 * forgets its own threads and never another key's. Minted keys go whole, least recently
 * used first, past the key count, their plans' bytes or their bytes together.
 */
export class Store {
  readonly keys = new Map<string, KeyRecord>();
  /** Every kept thread by id, whatever its key: ids are looked up before their key is known. */
  readonly threads = new Map<string, ThreadRecord>();
  /** Every kept trace's thread by interaction id. */
  private readonly interactions = new Map<string, ThreadRecord>();
  /** Each key by its agent's id. */
  private readonly byAgent = new Map<string, KeyRecord>();

  /** Bytes of the plans of the minted keys kept. */
  private planBytes = 0;
  /** Counted bytes the minted keys hold together. */
  private mintedBytes = 0;
  private readonly demoLimits: KeyLimits;
  private readonly mintedLimits: KeyLimits;
  private readonly mintedTogether: number;

  constructor(limits: LimitOptions = {}) {
    this.demoLimits = { ...DEMO_KEY_LIMITS, ...limits.demo };
    this.mintedLimits = { ...MINTED_KEY_LIMITS, ...limits.minted };
    this.mintedTogether = limits.mintedTogether ?? MINTED_KEYS_BYTES;
    const demo = newAgent({
      id: DEMO_AGENT_ID,
      projectId: DEMO_PROJECT_ID,
      name: 'Trailhead shop assistant',
      versionIds: DEMO_VERSION_IDS,
    });
    this.add(this.keyRecord(DEMO_PUBLISHABLE_KEY, demo, {}, false, 0));
  }

  private add(record: KeyRecord): void {
    this.keys.set(record.key, record);
    this.byAgent.set(record.agentId, record);
  }

  /** The key of an agent (each key has its own), without touching its place among the least recently used. */
  agentKey(agentId: string): KeyRecord | undefined {
    return this.byAgent.get(agentId.toLowerCase());
  }

  /** The thread an interaction ran on, while its trace is kept. */
  interaction(id: string): ThreadRecord | undefined {
    return this.interactions.get(id.toLowerCase());
  }

  /** A key of a test's own with its fault plan (`bytes`: its JSON's size); the least recently used are forgotten past the bounds. */
  createKey(plan: FaultPlan, bytes = 0): KeyRecord {
    const id = newHexId();
    const agent = newAgent({ id, projectId: TEST_PROJECT_ID, name: `Test agent ${id.slice(-6)}` });
    const record = this.keyRecord(`pk_test_${randomHex(12)}`, agent, plan, true, bytes);
    this.add(record);
    this.planBytes += bytes;
    this.evictKeys(record);
    return record;
  }

  /** The key, now its most recently used. */
  key(key: string): KeyRecord | undefined {
    const record = this.keys.get(key);
    if (record) {
      this.keys.delete(key);
      this.keys.set(key, record);
    }
    return record;
  }

  /** Counted bytes kept: every key's threads together. */
  get bytes(): number {
    let total = 0;
    for (const key of this.keys.values()) total += key.bytes;
    return total;
  }

  /** A minted key's request log (its stats): bounded by count and bytes, counted with the minted keys' bytes together. */
  recordRequest(record: KeyRecord, entry: KeyStats['requests'][number]): void {
    if (!record.minted) return;
    const log = record.stats.requests;
    const sizes = record.logSizes;
    log.push(entry);
    sizes.push(sizeOf(entry));
    let delta = sizes.at(-1)!;
    while (log.length > MAX_RECORDED_REQUESTS || (log.length > 1 && record.logBytes + delta > MAX_RECORDED_BYTES)) {
      log.shift();
      delta -= sizes.shift()!;
    }
    record.logBytes += delta;
    if (this.keys.get(record.key) !== record) return;
    this.mintedBytes += delta;
    if (this.mintedBytes > this.mintedTogether) this.evictKeys(record);
  }

  /**
   * One request of `key` against its rate: the 429 to answer when its bucket is empty
   * (with `Retry-After`), else nothing. Time is the key's (its clock may have been moved on).
   */
  limited(key: KeyRecord): ApiError | undefined {
    const wait = key.bucket.take(Date.now() + key.clockOffsetMs);
    if (!wait) return undefined;
    key.stats.limited += 1;
    return new ApiError(429, 'rate_limited', `Too many requests for this key; try again in ${wait} s.`, null, {
      'Retry-After': String(wait),
    });
  }

  /**
   * A new turn of `key`, or the 429 that refuses it: too many running, or its budget full
   * of running turns (idle threads are forgotten first). `done` must be called when it ends.
   */
  admitTurn(key: KeyRecord): Admission {
    this.settle(key);
    if (key.running >= key.limits.runningTurns || key.bytes > key.limits.bytes) {
      key.stats.limited += 1;
      throw new ApiError(429, 'rate_limited', 'Too many replies are running for this key; try again in a moment.', null, {
        'Retry-After': '1',
      });
    }
    key.running += 1;
    let ended = false;
    return {
      done: () => {
        if (ended) return;
        ended = true;
        key.running -= 1;
      },
    };
  }

  /** A new thread of `key`'s agent, on its live version or on `version` for good (a pinned rerun). */
  createThread(key: KeyRecord, init: { userId: string; title: string | null; version?: AgentVersion }): ThreadRecord {
    const version = init.version ?? liveVersion(key.agent);
    const now = new Date().toISOString();
    const thread: ThreadRecord = {
      id: newHexId(),
      agentId: key.agentId,
      key,
      bytes: 0,
      userId: init.userId,
      title: init.title,
      createdAt: now,
      updatedAt: now,
      versionId: version.id,
      versionTag: version.tag,
      pinned: init.version !== undefined,
      externalId: null,
      welcome: null,
      suggestions: null,
      messages: [],
      traces: new Map(),
      facets: emptyFacets(),
      lastSeq: 0,
      channels: [],
    };
    this.threads.set(thread.id, thread);
    key.threads.set(thread.id, thread);
    this.grow(thread, THREAD_OVERHEAD_BYTES);
    return thread;
  }

  /** A thread of another agent is reported exactly like a missing one: ids do not leak. */
  thread(agentId: string, id: string): ThreadRecord | undefined {
    const thread = this.threads.get(id.toLowerCase());
    if (!thread || thread.agentId !== agentId) return undefined;
    // Re-insert so eviction drops the key's least recently used thread, not its oldest busy one.
    thread.key.threads.delete(thread.id);
    thread.key.threads.set(thread.id, thread);
    return thread;
  }

  /** The version a new turn of `thread` runs on: the one it was pinned to, else its agent's live one. */
  versionOf(thread: ThreadRecord): AgentVersion {
    const agent = thread.key.agent;
    return (thread.pinned && agent.versions.find((v) => v.id === thread.versionId)) || liveVersion(agent);
  }

  /** A turn's trace, kept from its start (a running turn's shows its steps so far); the oldest go past the thread's bound. */
  startTrace(thread: ThreadRecord, trace: Trace): void {
    thread.traces.set(trace.interaction_id, trace);
    this.interactions.set(trace.interaction_id, thread);
    for (const [id] of thread.traces) {
      if (thread.traces.size <= MAX_TRACES_PER_THREAD) break;
      this.dropTrace(thread, id);
    }
  }

  /** The turn ended: its trace counts against the key from now on, and its steps become filterable. */
  endTrace(thread: ThreadRecord, trace: Trace): void {
    addFacets(thread.facets, trace.steps);
    if (thread.traces.get(trace.interaction_id) === trace) this.grow(thread, sizeOf(trace));
  }

  private dropTrace(thread: ThreadRecord, id: string): void {
    const trace = thread.traces.get(id);
    if (!trace) return;
    thread.traces.delete(id);
    if (this.interactions.get(id) === thread) this.interactions.delete(id);
    if (trace.status !== 'running') this.grow(thread, -sizeOf(trace));
  }

  append(thread: ThreadRecord, ...messages: Message[]): void {
    thread.messages.push(...messages);
    thread.updatedAt = new Date().toISOString();
    let added = 0;
    for (const message of messages) added += sizeOf(message);
    const excess = thread.messages.length - MAX_MESSAGES_PER_THREAD;
    if (excess > 0) for (const gone of thread.messages.splice(0, excess)) added -= sizeOf(gone);
    this.grow(thread, added);
  }

  /**
   * `bytes` more (or fewer) held by `thread`: frames of its turn, a trace. Past its key's
   * budget the key forgets its own least recently used idle threads, then this thread's
   * oldest messages.
   */
  grow(thread: ThreadRecord, bytes: number): void {
    const key = thread.key;
    thread.bytes += bytes;
    // A thread the key forgot (a turn still ending on it) counts no more.
    if (key.threads.get(thread.id) !== thread) return;
    key.bytes += bytes;
    if (key.minted) this.mintedBytes += bytes;
    if (bytes > 0) this.settle(key, thread);
    if (key.minted && this.mintedBytes > this.mintedTogether) this.evictKeys(key);
  }

  /** Brings `key` within its thread and byte budget, `keep` last. */
  private settle(key: KeyRecord, keep?: ThreadRecord): void {
    const over = () => key.threads.size > key.limits.threads || key.bytes > key.limits.bytes;
    if (!over()) return;
    for (const thread of key.threads.values()) {
      if (!over()) return;
      if (thread !== keep && !busy(thread)) this.forget(thread);
    }
    // One thread alone over the budget (with the running ones): its oldest messages go,
    // down to its last turn, then the traces of the turns that went.
    if (keep && key.bytes > key.limits.bytes && keep.messages.length > 2) {
      let freed = 0;
      let drop = 0;
      while (key.bytes - freed > key.limits.bytes && drop < keep.messages.length - 2) freed += sizeOf(keep.messages[drop++]);
      const gone = keep.messages.splice(0, drop);
      this.grow(keep, -freed);
      const left = new Set(keep.messages.map((m) => m.id));
      for (const m of gone) if (!left.has(m.id)) this.dropTrace(keep, m.id);
    }
  }

  private forget(thread: ThreadRecord): void {
    const key = thread.key;
    this.unindex(thread);
    key.threads.delete(thread.id);
    key.bytes -= thread.bytes;
    if (key.minted) this.mintedBytes -= thread.bytes;
  }

  /** Minted keys past their count, plans' bytes or bytes together: the least recently used go whole, never `keep` or the demo key. */
  private evictKeys(keep: KeyRecord): void {
    const over = () => this.keys.size > MAX_KEYS + 1 || this.planBytes > MAX_PLAN_BYTES_KEPT || this.mintedBytes > this.mintedTogether;
    for (const old of this.keys.values()) {
      if (!over()) return;
      if (!old.minted || old === keep || old.running > 0) continue;
      for (const thread of old.threads.values()) this.unindex(thread);
      // A request already past its token check counts nothing more against the store.
      old.threads.clear();
      this.keys.delete(old.key);
      this.byAgent.delete(old.agentId);
      this.planBytes -= old.planBytes;
      this.mintedBytes -= old.bytes + old.logBytes;
    }
  }

  private unindex(thread: ThreadRecord): void {
    this.threads.delete(thread.id);
    for (const id of thread.traces.keys()) if (this.interactions.get(id) === thread) this.interactions.delete(id);
  }

  private keyRecord(key: string, agent: AgentRecord, plan: FaultPlan, minted: boolean, planBytes: number): KeyRecord {
    const limits = minted ? { ...this.mintedLimits, ...plan.limits } : this.demoLimits;
    return {
      key,
      agentId: agent.id,
      agent,
      plan,
      minted,
      planBytes,
      stats: { turnsRun: 0, tokensIssued: 0, streamConnections: 0, socketConnections: 0, limited: 0, requests: [] },
      budget: {
        unauthorized: plan.unauthorized ?? 0,
        tokenExchangeFailures: plan.tokenExchangeFailures ?? 0,
        fail: (plan.fail ?? []).map((f) => f.times ?? 1),
        errorFrames: plan.errorFrame ? (plan.errorFrame.times ?? 1) : 0,
      },
      repliesUsed: 0,
      streamedTurns: 0,
      clockOffsetMs: 0,
      limits,
      bucket: new RateBucket(limits),
      threads: new Map(),
      bytes: 0,
      running: 0,
      logSizes: [],
      logBytes: 0,
    };
  }
}
