import type { Message } from '../../src/client/types.js';
import type { FaultPlan, KeyStats } from './faults.js';
import type { Turn } from './turn.js';

/** The publishable key of the demo shop; always valid, never carries faults. */
export const DEMO_PUBLISHABLE_KEY = 'pk_demo_shop';
const DEMO_AGENT_ID = '65f1a7c2e4b0d3a9c8f01234';

/**
 * A long-running demo must not grow forever: past these sizes the least recently used
 * entries are forgotten (a forgotten thread answers 404, as a deleted one would).
 */
const MAX_THREADS = 5000;
const MAX_KEYS = 5000;
const MAX_RECORDED_REQUESTS = 500;
/** The fault plans of minted keys, in bytes of JSON, at most together: the oldest keys go first. */
const MAX_PLAN_BYTES_KEPT = 64 * 1024 * 1024;
const MAX_MESSAGES_PER_THREAD = 2000;

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
}

export interface ThreadRecord {
  id: string;
  agentId: string;
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

export class Store {
  readonly keys = new Map<string, KeyRecord>();
  readonly threads = new Map<string, ThreadRecord>();

  /** Bytes of the plans of the minted keys kept. */
  private planBytes = 0;

  constructor() {
    this.keys.set(DEMO_PUBLISHABLE_KEY, this.keyRecord(DEMO_PUBLISHABLE_KEY, DEMO_AGENT_ID, {}, false, 0));
  }

  /** A key of a test's own with its fault plan (`bytes`: its JSON's size); the oldest are forgotten past the bounds. */
  createKey(plan: FaultPlan, bytes = 0): KeyRecord {
    const record = this.keyRecord(`pk_test_${randomHex(12)}`, newHexId(), plan, true, bytes);
    this.keys.set(record.key, record);
    this.planBytes += bytes;
    for (const [oldest, old] of this.keys) {
      if (this.keys.size <= MAX_KEYS && this.planBytes <= MAX_PLAN_BYTES_KEPT) break;
      if (oldest === DEMO_PUBLISHABLE_KEY || oldest === record.key) continue;
      this.keys.delete(oldest);
      this.planBytes -= old.planBytes;
    }
    return record;
  }

  key(key: string): KeyRecord | undefined {
    return this.keys.get(key);
  }

  recordRequest(record: KeyRecord, entry: KeyStats['requests'][number]): void {
    if (!record.minted) return;
    const log = record.stats.requests;
    log.push(entry);
    if (log.length > MAX_RECORDED_REQUESTS) log.splice(0, log.length - MAX_RECORDED_REQUESTS);
  }

  createThread(init: { agentId: string; userId: string; title: string | null; version?: AgentVersion }): ThreadRecord {
    const version = init.version ?? liveVersion();
    const thread: ThreadRecord = {
      id: newHexId(),
      agentId: init.agentId,
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
    for (const oldest of this.threads.keys()) {
      if (this.threads.size <= MAX_THREADS) break;
      this.threads.delete(oldest);
    }
    return thread;
  }

  /** A thread of another agent is reported exactly like a missing one: ids do not leak. */
  thread(agentId: string, id: string): ThreadRecord | undefined {
    const thread = this.threads.get(id.toLowerCase());
    if (!thread || thread.agentId !== agentId) return undefined;
    // Re-insert so eviction drops the least recently used thread, not the oldest busy one.
    this.threads.delete(thread.id);
    this.threads.set(thread.id, thread);
    return thread;
  }

  append(thread: ThreadRecord, ...messages: Message[]): void {
    thread.messages.push(...messages);
    const excess = thread.messages.length - MAX_MESSAGES_PER_THREAD;
    if (excess > 0) thread.messages.splice(0, excess);
  }

  private keyRecord(key: string, agentId: string, plan: FaultPlan, minted: boolean, planBytes: number): KeyRecord {
    return {
      key,
      agentId,
      plan,
      minted,
      planBytes,
      stats: { turnsRun: 0, tokensIssued: 0, streamConnections: 0, socketConnections: 0, requests: [] },
      budget: {
        unauthorized: plan.unauthorized ?? 0,
        tokenExchangeFailures: plan.tokenExchangeFailures ?? 0,
        fail: (plan.fail ?? []).map((f) => f.times ?? 1),
        errorFrames: plan.errorFrame ? (plan.errorFrame.times ?? 1) : 0,
      },
      repliesUsed: 0,
      streamedTurns: 0,
      clockOffsetMs: 0,
    };
  }
}
