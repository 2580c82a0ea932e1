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
}

export interface IdempotencyEntry {
  /** Who sent it, as far as the service knows them (the token's session); '' when unknown. */
  caller: string;
  userId: string;
  text: string;
  /** The thread the request named, if it named one. */
  threadId: string | null;
  /** The turn it started; null: spent before it arrived, so it never runs. */
  turnId: string | null;
  at: number;
}

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
    }>('SELECT caller, user_id, text, thread_id, turn_id, at FROM idempotency_keys WHERE owner = $1 AND key = $2 AND at > $3', [
      owner,
      key,
      now - WINDOW_MS,
    ]);
    const row = rows[0];
    return row && { caller: row.caller, userId: row.user_id, text: row.text, threadId: row.thread_id, turnId: row.turn_id, at: row.at };
  }

  async put(owner: string, key: string, e: IdempotencyEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO idempotency_keys (owner, key, caller, user_id, text, thread_id, turn_id, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (owner, key) DO UPDATE SET caller = $3, user_id = $4, text = $5, thread_id = $6, turn_id = $7, at = $8`,
      [owner, key, e.caller, e.userId, e.text, e.threadId, e.turnId, e.at],
    );
    // Past the window, or past the bound of its own kind (the oldest first).
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE owner = $1 AND (at <= $2 OR key IN (
         SELECT key FROM idempotency_keys WHERE owner = $1 AND (turn_id IS NULL) = $3 ORDER BY at DESC, key OFFSET $4
       ))`,
      [owner, e.at - WINDOW_MS, e.turnId === null, MAX_KEYS],
    );
  }
}
