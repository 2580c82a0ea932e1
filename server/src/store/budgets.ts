import { ApiError } from '../http/errors.js';
import type { Stores } from './index.js';
import type { KeyRecord } from './records.js';

/** A running turn's place in its key's `runningTurns`; `done` gives it back (once). */
export interface Admission {
  done(): void;
}

/**
 * What one publishable key may hold (limits.ts), enforced over the stores: past its thread
 * or byte budget a key forgets its own least recently used idle threads (they answer 404,
 * as deleted ones would), then the oldest messages of the thread that grew; past its
 * running turns a new turn is refused. One key never pushes out another's threads.
 */
export class Budgets {
  private readonly running = new Map<string, number>();
  /** Each key's settling, one at a time: two at once would pick the same threads (and lock them in two orders). */
  private readonly settling = new Map<string, Promise<unknown>>();
  /** Set while the server stops: no new turn is admitted. */
  private closed = false;

  constructor(
    private readonly stores: Pick<Stores, 'threads'>,
    private readonly hooks: {
      /** A refusal past a limit, for the key's stats (the fault knobs count them). */
      limited?: (key: KeyRecord) => void;
      /** A key was brought within its budget after it grew (the fault knobs bound minted keys together). */
      settled?: (key: KeyRecord) => Promise<void>;
    } = {},
  ) {}

  /** Admits no new turn from now on (the server is stopping): 503 with `Retry-After`, for another instance or later. */
  close(): void {
    this.closed = true;
  }

  /** Turns running in this process, every key's. */
  get total(): number {
    let sum = 0;
    for (const n of this.running.values()) sum += n;
    return sum;
  }

  /** Turns of `key` running in this process. */
  runningOf(key: string): number {
    return this.running.get(key) ?? 0;
  }

  /**
   * A new turn of `key`, or the 429 that refuses it: too many running, or its budget full
   * of what it cannot forget (idle threads are forgotten first). `done` must be called when
   * it ends.
   */
  async admitTurn(key: KeyRecord): Promise<Admission> {
    const refuse = () => {
      this.hooks.limited?.(key);
      return new ApiError(429, 'rate_limited', 'Too many replies are running for this key; try again in a moment.', null, {
        'Retry-After': '1',
      });
    };
    if (this.closed) {
      // Asked again in a second, on a new connection: behind a load balancer that is another
      // instance, at once; alone, this one's successor once it listens (docs/deploy.md).
      throw new ApiError(503, 'server.shutting_down', 'The server is shutting down; try again in a moment.', null, {
        'Retry-After': '1',
        Connection: 'close',
      });
    }
    // Counted before the first await, so turns asked for at once are admitted one by one.
    if (this.runningOf(key.key) >= key.limits.runningTurns) throw refuse();
    this.running.set(key.key, this.runningOf(key.key) + 1);
    let ended = false;
    const admission = {
      done: () => {
        if (ended) return;
        ended = true;
        const left = this.runningOf(key.key) - 1;
        if (left > 0) this.running.set(key.key, left);
        else this.running.delete(key.key);
      },
    };
    try {
      const usage = await this.settle(key);
      if (usage.bytes > key.limits.bytes) throw refuse();
    } catch (error) {
      admission.done();
      throw error;
    }
    return admission;
  }

  /**
   * Brings `key` within its thread and byte budget, `keep` (the thread that just grew) last:
   * its oldest messages go, down to its latest turn, when the others are not enough.
   * Returns what the key holds then.
   */
  settle(key: KeyRecord, keep?: string): Promise<{ threads: number; bytes: number }> {
    const before = this.settling.get(key.key) ?? Promise.resolve();
    const run = before
      .catch(() => {})
      .then(async () => {
        const usage = await this.within(key, keep);
        await this.hooks.settled?.(key);
        return usage;
      });
    const last = run.catch(() => {});
    this.settling.set(key.key, last);
    void last.then(() => {
      if (this.settling.get(key.key) === last) this.settling.delete(key.key);
    });
    return run;
  }

  private async within(key: KeyRecord, keep?: string): Promise<{ threads: number; bytes: number }> {
    const { threads } = this.stores;
    let usage = await threads.usage(key.key);
    const over = () => usage.threads > key.limits.threads || usage.bytes > key.limits.bytes;
    if (!over()) return usage;
    // Enough of the least recently used to come under both limits, in one pass.
    const wanted = Math.max(usage.threads - key.limits.threads, 0) + 64;
    const candidates = await threads.idle(key.key, keep, wanted);
    const forget: typeof candidates = [];
    for (const candidate of candidates) {
      if (!over()) break;
      forget.push(candidate);
      usage = { threads: usage.threads - 1, bytes: usage.bytes - candidate.bytes };
    }
    // One a turn began on meanwhile stays: what the key holds is read again.
    if ((await threads.forget(forget)).length < forget.length) usage = await threads.usage(key.key);
    // Idle threads past this batch: another pass.
    if (over() && candidates.length === wanted) return this.within(key, keep);
    if (keep && usage.bytes > key.limits.bytes) {
      await threads.trim(keep, usage.bytes - key.limits.bytes);
      usage = await threads.usage(key.key);
    }
    return usage;
  }
}
