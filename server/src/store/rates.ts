import type { Queryable } from './db.js';

/**
 * Rate buckets (the port): a token bucket per name (a publishable key's, the organization
 * key's, a client address's failed attempts), `burst` at once, refilled at `perSecond`.
 * Kept in the database, so a key's rate is one budget whichever instance answers.
 */
export interface RateStore {
  /** Takes one request's token at time `now` (ms): 0 when granted, else the whole seconds until one is there. */
  take(name: string, limits: RateLimits, now: number): Promise<number>;
}

export interface RateLimits {
  perSecond: number;
  burst: number;
}

/** The whole seconds until a bucket holding `tokens` has one. */
export const waitFor = (tokens: number, perSecond: number): number => Math.max(1, Math.ceil((1 - tokens) / perSecond));

export class SqlRateStore implements RateStore {
  constructor(private readonly db: Queryable) {}

  async take(name: string, { perSecond, burst }: RateLimits, now: number): Promise<number> {
    // One statement: the refill, the take and the answer, whatever else runs at the same time.
    const { rows } = await this.db.query<{ tokens: number; granted: boolean }>(
      `WITH given AS (SELECT $2::double precision AS per_second, $3::double precision AS burst, $4::double precision AS now)
       INSERT INTO rate_buckets AS b (name, tokens, at, granted) SELECT $1, burst - 1, now, true FROM given
       ON CONFLICT (name) DO UPDATE SET
         tokens = (SELECT least(burst, b.tokens + greatest(0, now - b.at) / 1000.0 * per_second) FROM given)
                  - CASE WHEN (SELECT least(burst, b.tokens + greatest(0, now - b.at) / 1000.0 * per_second) FROM given) >= 1 THEN 1 ELSE 0 END,
         granted = (SELECT least(burst, b.tokens + greatest(0, now - b.at) / 1000.0 * per_second) FROM given) >= 1,
         at = greatest(b.at, $4::double precision)
       RETURNING tokens, granted`,
      [name, perSecond, burst, now],
    );
    const row = rows[0]!;
    return row.granted ? 0 : waitFor(row.tokens, perSecond);
  }
}
