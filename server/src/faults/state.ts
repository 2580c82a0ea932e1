import type { KeyRecord } from '../store/records.js';
import { sizeOf } from '../store/limits.js';
import type { FaultPlan, KeyStats } from './plan.js';

/**
 * What the fault knobs count as a minted key is used: budgets that fire "the next N times",
 * the key's clock, its stats and request log. Kept in this process, beside the stores: the
 * knobs are for tests, which run against one process. The demo key and an operator's keys
 * have none (`FaultBook.of` gives them a blank one that nothing reads back).
 */
export interface FaultState {
  budget: { unauthorized: number; tokenExchangeFailures: number; fail: number[]; errorFrames: number };
  /** Turns that took a scripted reply from `plan.replies`. */
  repliesUsed: number;
  /** Streamed turns so far: `plan.rawTurns` is indexed by it. */
  streamedTurns: number;
  /** How far the key's clock runs ahead of the server's (`POST /__demo/keys/:key/clock`). */
  clockOffsetMs: number;
  stats: KeyStats;
  /** Counted bytes of `stats.requests`, entry by entry, and together. */
  logSizes: number[];
  logBytes: number;
}

const MAX_RECORDED_REQUESTS = 500;
/** Counted bytes of a minted key's request log at most (its bodies may be 64 KB each): the oldest entries go first. */
const MAX_RECORDED_BYTES = 1024 * 1024;

function blank(key: KeyRecord): FaultState {
  const plan = key.plan as FaultPlan;
  return {
    budget: {
      unauthorized: plan.unauthorized ?? 0,
      tokenExchangeFailures: plan.tokenExchangeFailures ?? 0,
      fail: (plan.fail ?? []).map((f) => f.times ?? 1),
      errorFrames: plan.errorFrame ? (plan.errorFrame.times ?? 1) : 0,
    },
    repliesUsed: 0,
    streamedTurns: 0,
    clockOffsetMs: 0,
    stats: { turnsRun: 0, tokensIssued: 0, streamConnections: 0, socketConnections: 0, limited: 0, requests: [] },
    logSizes: [],
    logBytes: 0,
  };
}

/** The fault state of every minted key this process has seen. */
export class FaultBook {
  private readonly states = new Map<string, FaultState>();

  /** The key's state (made on first use); a key that is not minted gets a throwaway one. */
  of(key: KeyRecord): FaultState {
    if (key.kind !== 'minted') return blank(key);
    let state = this.states.get(key.key);
    if (!state) this.states.set(key.key, (state = blank(key)));
    return state;
  }

  /** The state of the minted key named `key`, if this process has seen it. */
  named(key: string): FaultState | undefined {
    return this.states.get(key);
  }

  /** The time on the key's clock. */
  now(key: KeyRecord): number {
    return Date.now() + (key.kind === 'minted' ? (this.states.get(key.key)?.clockOffsetMs ?? 0) : 0);
  }

  forget(key: string): void {
    this.states.delete(key);
  }

  /** Counted bytes of every minted key's request log. */
  logBytes(key: string): number {
    return this.states.get(key)?.logBytes ?? 0;
  }

  /** A minted key's request log (its stats): bounded by count and bytes. Returns the bytes it grew by. */
  record(key: KeyRecord, entry: KeyStats['requests'][number]): number {
    if (key.kind !== 'minted') return 0;
    const state = this.of(key);
    const log = state.stats.requests;
    log.push(entry);
    state.logSizes.push(sizeOf(entry));
    let delta = state.logSizes.at(-1)!;
    while (log.length > MAX_RECORDED_REQUESTS || (log.length > 1 && state.logBytes + delta > MAX_RECORDED_BYTES)) {
      log.shift();
      delta -= state.logSizes.shift()!;
    }
    state.logBytes += delta;
    return delta;
  }
}
