import { SqlAgentStore, type AgentStore } from './agents.js';
import { openDb, type Db, type DatabaseLocation } from './db.js';
import { SqlIdempotencyStore, type IdempotencyStore } from './idempotency.js';
import { defaultKeyLimits, SqlKeyStore, type KeyStore } from './keys.js';
import type { KeyLimits } from './limits.js';
import { SqlRateStore, type RateStore } from './rates.js';
import { migrate } from './schema.js';
import { SqlSettingsStore, type SettingsStore } from './settings.js';
import { SqlThreadStore, type ThreadStore } from './threads.js';
import { SqlTraceStore, type TraceStore } from './traces.js';
import { SqlTurnStore, type TurnStore } from './turns.js';

/**
 * Everything the server keeps, behind one port per kind of record (each file of this folder
 * says what its port promises). There is one implementation, in SQL, on PostgreSQL: the
 * embedded one (PGlite) or a server (`pg`), db.ts. The fault knobs wrap these ports in
 * tests; nothing else reaches the database.
 */
export interface Stores {
  db: Db;
  keys: KeyStore;
  agents: AgentStore;
  threads: ThreadStore;
  traces: TraceStore;
  turns: TurnStore;
  idempotency: IdempotencyStore;
  rates: RateStore;
  settings: SettingsStore;
  /** Writes what is pending (the frame log) and closes the database. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Per-key limits other than the defaults (limits.ts). */
  limits?: { demo?: Partial<KeyLimits>; minted?: Partial<KeyLimits> };
  /** How long a running turn's lease lasts unless renewed (turns.ts, LEASE_MS). */
  leaseMs?: number;
}

/** The stores over `db`, its schema brought up to date first. */
export async function storesOn(db: Db, options: StoreOptions = {}): Promise<Stores> {
  await migrate(db);
  const turns = new SqlTurnStore(db, options.leaseMs);
  return {
    db,
    keys: new SqlKeyStore(db, defaultKeyLimits(options.limits)),
    agents: new SqlAgentStore(db),
    threads: new SqlThreadStore(db),
    traces: new SqlTraceStore(db),
    turns,
    idempotency: new SqlIdempotencyStore(db),
    rates: new SqlRateStore(db),
    settings: new SqlSettingsStore(db),
    async close() {
      turns.release();
      await turns.flush();
      await db.close();
    },
  };
}

/** Opens the database at `location` (`memory://`, a folder, or `postgres://…`) and its stores. */
export async function openStores(location: DatabaseLocation, options: StoreOptions = {}): Promise<Stores> {
  const db = await openDb(location);
  try {
    return await storesOn(db, options);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
