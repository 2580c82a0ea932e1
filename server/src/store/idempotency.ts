import type { Queryable } from './db.js';

/**
 * Idempotency keys (the port; docs/protocol.md "A send and a reload"): which turn the
 * request with a key started, or that the key was spent before its request arrived (a
 * resume asked first). Kept per publishable key for WINDOW_MS, at most MAX_KEYS of each
 * kind per key: keys of turns that ran and spent keys are bounded apart, so a flood of
 * cheap resumes cannot push out the key of a turn that ran.
 */
export interface IdempotencyStore {
  get(owner: string, key: string, now: number): Promise<IdempotencyEntry | undefined>;
  /** Remembers what a key names; the oldest of its kind past the bound are forgotten. */
  put(owner: string, key: string, entry: IdempotencyEntry): Promise<void>;
  /**
   * Claims a key no request has decided yet, for the request that will (it starts a turn, or
   * spends the key): true when this caller holds it. Another caller's claim is taken over
   * only once it is CLAIM_MS old (its instance went while deciding).
   */
  claim(owner: string, key: string, entry: IdempotencyEntry): Promise<boolean>;
  /** Lets go of a claim whose request decided nothing (it was refused): the key is unseen again. */
  release(owner: string, key: string): Promise<void>;
}

export interface IdempotencyEntry {
  /** Who sent it, as far as the service knows them (the token's session); '' when unknown. */
  caller: string;
  userId: string;
  text: string;
  /** The thread the request named, if it named one. */
  threadId: string | null;
  /** The turn it started; null: spent before it arrived, so it never runs (unless `pending`). */
  turnId: string | null;
  at: number;
  /** Claimed by a request being decided, on this instance or another: wait for its decision. */
  pending?: boolean;
}

/** How long a claim holds before another request may take it over: its instance went while deciding. */
export const CLAIM_MS = 10_000;

/** As long as a page may come back for a turn (a stored turn older than this is not resumed). */
export const WINDOW_MS = 15 * 60_000;
export const MAX_KEYS = 1_000;

export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: Queryable) {}

  async get(owner: string, key: string, now: number): Promise<IdempotencyEntry | undefined> {
    const { rows } = await this.db.query<{
      caller: string;
      user_id: string;
      text: string;
      thread_id: string | null;
      turn_id: string | null;
      at: number;
      pending: boolean;
    }>('SELECT caller, user_id, text, thread_id, turn_id, at, pending FROM idempotency_keys WHERE owner = $1 AND key = $2 AND at > $3', [
      owner,
      key,
      now - WINDOW_MS,
    ]);
    const row = rows[0];
    return (
      row && {
        caller: row.caller,
        userId: row.user_id,
        text: row.text,
        threadId: row.thread_id,
        turnId: row.turn_id,
        at: row.at,
        pending: row.pending,
      }
    );
  }

  async claim(owner: string, key: string, e: IdempotencyEntry): Promise<boolean> {
    // One statement: of two instances claiming at once, one inserts, the other finds its row.
    const { rows } = await this.db.query(
      `INSERT INTO idempotency_keys AS k (owner, key, caller, user_id, text, thread_id, turn_id, at, pending)
       VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, true)
       ON CONFLICT (owner, key) DO UPDATE SET caller = $3, user_id = $4, text = $5, thread_id = $6, turn_id = NULL, at = $7, pending = true
         WHERE k.at <= $8 OR (k.pending AND k.at <= $9)
       RETURNING key`,
      [owner, key, e.caller, e.userId, e.text, e.threadId, e.at, e.at - WINDOW_MS, e.at - CLAIM_MS],
    );
    return rows.length > 0;
  }

  async release(owner: string, key: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2 AND pending', [owner, key]);
  }

  async put(owner: string, key: string, e: IdempotencyEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO idempotency_keys (owner, key, caller, user_id, text, thread_id, turn_id, at, pending) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false)
       ON CONFLICT (owner, key) DO UPDATE SET caller = $3, user_id = $4, text = $5, thread_id = $6, turn_id = $7, at = $8, pending = false`,
      [owner, key, e.caller, e.userId, e.text, e.threadId, e.turnId, e.at],
    );
    // Past the window, or past the bound of its own kind (the oldest first); never a claim
    // being decided (it is a request on its way, not a key kept).
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE owner = $1 AND (at <= $2 OR key IN (
         SELECT key FROM idempotency_keys WHERE owner = $1 AND NOT pending AND (turn_id IS NULL) = $3 ORDER BY at DESC, key OFFSET $4
       ))`,
      [owner, e.at - WINDOW_MS, e.turnId === null, MAX_KEYS],
    );
  }
}
