import type { Message } from '../../src/client/types.js';
import { ApiError } from './errors.js';
import type { FaultPlan, KeyStats } from './faults.js';
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
import type { Turn } from './turn.js';

/** The publishable key of the demo shop; always valid, never carries faults. */
export const DEMO_PUBLISHABLE_KEY = 'pk_demo_shop';
const DEMO_AGENT_ID = '65f1a7c2e4b0d3a9c8f01234';

/** Minted keys kept at most: the least recently used go first (a key in use is never the oldest). */
const MAX_KEYS = 5000;
const MAX_RECORDED_REQUESTS = 500;
/** Counted bytes of a minted key's request log at most (its bodies may be 64 KB each): the oldest entries go first. */
const MAX_RECORDED_BYTES = 1024 * 1024;
/** The fault plans of minted keys, in bytes of JSON, at most together: the least recently used keys go first. */
const MAX_PLAN_BYTES_KEPT = 32 * 1024 * 1024;

export interface AgentVersion {
  id: string;
  tag: string;
  live: boolean;
}

/** Every demo agent runs the same script; the preview version differs in small, visible ways. */
export const AGENT_VERSIONS: readonly AgentVersion[] = [
  { id: '65f1a7c2e4b0d3a9c8f0a100', tag: 'v1.0', live: true },
  { id: '65f1a7c2e4b0d3a9c8f0a101', tag: 'v1.1-preview', live: false },
];

export const liveVersion = (): AgentVersion => AGENT_VERSIONS.find((v) => v.live) ?? AGENT_VERSIONS[0]!;

export interface KeyRecord {
  key: string;
  /** Each key gets an agent of its own, so threads of parallel tests never meet. */
  agentId: string;
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
  versionId: string;
  versionTag: string;
  messages: Message[];
  /** Last `seq` handed out; numbering continues across the turns of a thread. */
  lastSeq: number;
  /** Only the newest turn is kept for resume: an older one can no longer be the one a client lost. */
  latestTurn?: Turn;
  branchedFrom?: { threadId: string; interactionId: string };
  channels: Array<{ channel: string; phoneNumber: string; boundAt: string }>;
}

function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** ObjectId-like: 4 bytes of seconds then 8 random bytes, so ids sort roughly by creation. */
export function newHexId(): string {
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomHex(8);
}

export function newRequestId(): string {
  return `req_${randomHex(12)}`;
}

/** Per-key limits that differ from the defaults (limits.ts), for `createReferenceServer({ limits })`. */
export interface LimitOptions {
  /** The public demo key's. */
  demo?: Partial<KeyLimits>;
  /** Each minted key's, before its plan's own `limits`. */
  minted?: Partial<KeyLimits>;
  /** Bytes all minted keys hold together (default MINTED_KEYS_BYTES). */
  mintedTogether?: number;
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
    this.keys.set(DEMO_PUBLISHABLE_KEY, this.keyRecord(DEMO_PUBLISHABLE_KEY, DEMO_AGENT_ID, {}, false, 0));
  }

  /** A key of a test's own with its fault plan (`bytes`: its JSON's size); the least recently used are forgotten past the bounds. */
  createKey(plan: FaultPlan, bytes = 0): KeyRecord {
    const record = this.keyRecord(`pk_test_${randomHex(12)}`, newHexId(), plan, true, bytes);
    this.keys.set(record.key, record);
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

  createThread(key: KeyRecord, init: { userId: string; title: string | null; version?: AgentVersion }): ThreadRecord {
    const version = init.version ?? liveVersion();
    const thread: ThreadRecord = {
      id: newHexId(),
      agentId: key.agentId,
      key,
      bytes: 0,
      userId: init.userId,
      title: init.title,
      createdAt: new Date().toISOString(),
      versionId: version.id,
      versionTag: version.tag,
      messages: [],
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

  append(thread: ThreadRecord, ...messages: Message[]): void {
    thread.messages.push(...messages);
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
    // down to its last turn.
    if (keep && key.bytes > key.limits.bytes && keep.messages.length > 2) {
      let freed = 0;
      let drop = 0;
      while (key.bytes - freed > key.limits.bytes && drop < keep.messages.length - 2) freed += sizeOf(keep.messages[drop++]);
      keep.messages.splice(0, drop);
      this.grow(keep, -freed);
    }
  }

  private forget(thread: ThreadRecord): void {
    const key = thread.key;
    this.threads.delete(thread.id);
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
      for (const thread of old.threads.values()) this.threads.delete(thread.id);
      // A request already past its token check counts nothing more against the store.
      old.threads.clear();
      this.keys.delete(old.key);
      this.planBytes -= old.planBytes;
      this.mintedBytes -= old.bytes + old.logBytes;
    }
  }

  private keyRecord(key: string, agentId: string, plan: FaultPlan, minted: boolean, planBytes: number): KeyRecord {
    const limits = minted ? { ...this.mintedLimits, ...plan.limits } : this.demoLimits;
    return {
      key,
      agentId,
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
