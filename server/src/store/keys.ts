import type { Queryable } from './db.js';
import { DEMO_KEY_LIMITS, MINTED_KEY_LIMITS, OPERATOR_KEY_LIMITS, type KeyLimits } from './limits.js';
import type { KeyRecord } from './records.js';

/**
 * Publishable keys (the port): which agent a key serves and what it may hold. Read on every
 * request, so kept in this process once read; a key changes only by being made or removed,
 * both through here.
 */
export interface KeyStore {
  get(key: string): Promise<KeyRecord | undefined>;
  /** The keys of an agent (each agent of the demo has one). */
  forAgent(agentId: string): Promise<KeyRecord[]>;
  /** Adds a key, or leaves the one of that name as it is. */
  ensure(record: Omit<KeyRecord, 'limits' | 'createdAt'>): Promise<KeyRecord>;
  /** A test's key with its fault plan (`bytes`: the plan's JSON size, counted against the plans' bound). */
  mint(record: Omit<KeyRecord, 'limits' | 'createdAt' | 'kind'>, bytes: number): Promise<KeyRecord>;
  /** A minted key was used now: the least recently used go first. */
  touch(key: string, now: number): Promise<void>;
  /** Minted keys, least recently used first, with their plans' bytes. */
  minted(): Promise<Array<{ key: string; agentId: string; planBytes: number }>>;
  /** Removes a key and everything made with it (minted keys past their bounds); returns its agent's id. */
  remove(key: string): Promise<string | undefined>;
  count(): Promise<number>;
}

/** Limits other than the defaults (`createReferenceServer({ limits })`). */
export interface KeyLimitDefaults {
  demo: KeyLimits;
  minted: KeyLimits;
  operator: KeyLimits;
}

export const defaultKeyLimits = (overrides: { demo?: Partial<KeyLimits>; minted?: Partial<KeyLimits> } = {}): KeyLimitDefaults => ({
  demo: { ...DEMO_KEY_LIMITS, ...overrides.demo },
  minted: { ...MINTED_KEY_LIMITS, ...overrides.minted },
  operator: OPERATOR_KEY_LIMITS,
});

interface KeyRow {
  key: string;
  agent_id: string;
  kind: KeyRecord['kind'];
  plan: KeyRecord['plan'];
  created_at: string;
}

/** The keys looked up most recently, at most this many (a minted key's plan may be 2 MB). */
const CACHED_KEYS = 256;

export class SqlKeyStore implements KeyStore {
  private readonly cache = new Map<string, KeyRecord>();

  constructor(
    private readonly db: Queryable,
    private readonly limits: KeyLimitDefaults,
  ) {}

  private record(row: KeyRow): KeyRecord {
    return {
      key: row.key,
      agentId: row.agent_id,
      kind: row.kind,
      plan: row.plan ?? {},
      limits: this.limits[row.kind],
      createdAt: row.created_at,
    };
  }

  private remember(record: KeyRecord): KeyRecord {
    this.cache.delete(record.key);
    this.cache.set(record.key, record);
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= CACHED_KEYS) break;
      this.cache.delete(oldest);
    }
    return record;
  }

  async get(key: string): Promise<KeyRecord | undefined> {
    const cached = this.cache.get(key);
    if (cached) return this.remember(cached);
    if (key.length > 200) return undefined;
    const { rows } = await this.db.query<KeyRow>('SELECT key, agent_id, kind, plan, created_at FROM publishable_keys WHERE key = $1', [
      key,
    ]);
    return rows[0] ? this.remember(this.record(rows[0])) : undefined;
  }

  async forAgent(agentId: string): Promise<KeyRecord[]> {
    const { rows } = await this.db.query<KeyRow>(
      'SELECT key, agent_id, kind, plan, created_at FROM publishable_keys WHERE agent_id = $1 ORDER BY created_at, key',
      [agentId],
    );
    return rows.map((row) => this.record(row));
  }

  async ensure(record: Omit<KeyRecord, 'limits' | 'createdAt'>): Promise<KeyRecord> {
    const now = new Date();
    await this.db.query(
      `INSERT INTO publishable_keys (key, agent_id, kind, plan, created_at, used_at) VALUES ($1, $2, $3, $4::json, $5, $6)
       ON CONFLICT (key) DO NOTHING`,
      [record.key, record.agentId, record.kind, JSON.stringify(record.plan), now.toISOString(), now.getTime()],
    );
    return (await this.get(record.key))!;
  }

  async mint(record: Omit<KeyRecord, 'limits' | 'createdAt' | 'kind'>, bytes: number): Promise<KeyRecord> {
    const now = new Date();
    await this.db.query(
      `INSERT INTO publishable_keys (key, agent_id, kind, plan, plan_bytes, created_at, used_at) VALUES ($1, $2, 'minted', $3::json, $4, $5, $6)`,
      [record.key, record.agentId, JSON.stringify(record.plan), bytes, now.toISOString(), now.getTime()],
    );
    return this.remember({
      ...record,
      kind: 'minted',
      limits: this.limits.minted,
      createdAt: now.toISOString(),
    });
  }

  async touch(key: string, now: number): Promise<void> {
    await this.db.query(`UPDATE publishable_keys SET used_at = $2 WHERE key = $1 AND kind = 'minted'`, [key, now]);
  }

  async minted(): Promise<Array<{ key: string; agentId: string; planBytes: number }>> {
    const { rows } = await this.db.query<{ key: string; agent_id: string; plan_bytes: number }>(
      `SELECT key, agent_id, plan_bytes FROM publishable_keys WHERE kind = 'minted' ORDER BY used_at, key`,
    );
    return rows.map((r) => ({ key: r.key, agentId: r.agent_id, planBytes: r.plan_bytes }));
  }

  async remove(key: string): Promise<string | undefined> {
    this.cache.delete(key);
    const { rows } = await this.db.query<{ agent_id: string }>('DELETE FROM publishable_keys WHERE key = $1 RETURNING agent_id', [key]);
    if (!rows[0]) return undefined;
    // Its threads (and with them their messages, traces, turns and frames), its keys, its rate.
    await this.db.query('DELETE FROM threads WHERE key = $1', [key]);
    await this.db.query('DELETE FROM key_usage WHERE key = $1', [key]);
    await this.db.query('DELETE FROM idempotency_keys WHERE owner = $1', [key]);
    await this.db.query('DELETE FROM rate_buckets WHERE name = $1', [`key:${key}`]);
    return rows[0].agent_id;
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM publishable_keys');
    return rows[0]!.n;
  }
}
