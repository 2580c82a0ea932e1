import type { Db } from './db.js';

/**
 * The schema, as numbered migrations run at start (server/README.md "Upgrades"). A
 * migration is never edited once released: a change is a new one at the end. The pending
 * ones run in one transaction (all of them or none), each number recorded in
 * `schema_migrations`, under an advisory lock, so several instances starting at once apply
 * each migration exactly once.
 *
 * Columns the server filters or sorts on are columns; what it only hands back (a message,
 * a trace, a frame, a fault plan) is `json`, kept as written (its keys in their order, as
 * a client reads them), so its shape can grow without a migration; what it searches in (a
 * thread's facets) is `jsonb`.
 * Times are ISO 8601 text (`Date#toISOString()`, which sorts as it reads); `used_at` and
 * `at` are milliseconds, for arithmetic.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'agents, keys, threads, messages, traces, turns and their frames, idempotency keys, rate buckets',
    sql: `
      CREATE TABLE agents (
        id text PRIMARY KEY,
        project_id text NOT NULL,
        name text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        live_version_id text NOT NULL
      );
      CREATE TABLE agent_versions (
        id text PRIMARY KEY,
        agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        tag text NOT NULL,
        state text NOT NULL,
        name text,
        created_at text NOT NULL,
        published_at text,
        settings jsonb NOT NULL DEFAULT '{}',
        UNIQUE (agent_id, tag)
      );
      CREATE TABLE publishable_keys (
        key text PRIMARY KEY,
        agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        kind text NOT NULL,
        plan json NOT NULL DEFAULT '{}',
        plan_bytes integer NOT NULL DEFAULT 0,
        created_at text NOT NULL,
        used_at double precision NOT NULL
      );
      CREATE INDEX publishable_keys_agent ON publishable_keys (agent_id);
      CREATE INDEX publishable_keys_minted ON publishable_keys (used_at) WHERE kind = 'minted';
      CREATE TABLE threads (
        id text PRIMARY KEY,
        agent_id text NOT NULL,
        project_id text NOT NULL,
        key text NOT NULL,
        user_id text NOT NULL,
        title text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        used_at double precision NOT NULL,
        version_id text NOT NULL,
        version_tag text NOT NULL,
        pinned boolean NOT NULL DEFAULT false,
        external_id text,
        welcome text,
        suggestions jsonb,
        last_seq integer NOT NULL DEFAULT 0,
        latest_turn text,
        branched_from jsonb,
        channels jsonb NOT NULL DEFAULT '[]',
        facets jsonb NOT NULL DEFAULT '{}',
        message_count integer NOT NULL DEFAULT 0,
        bytes double precision NOT NULL DEFAULT 0
      );
      CREATE INDEX threads_key_used ON threads (key, used_at);
      CREATE INDEX threads_agent_created ON threads (agent_id, created_at, id);
      CREATE INDEX threads_agent_updated ON threads (agent_id, updated_at, id);
      CREATE TABLE messages (
        thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        position integer NOT NULL,
        id text NOT NULL,
        data json NOT NULL,
        bytes double precision NOT NULL,
        PRIMARY KEY (thread_id, position)
      );
      CREATE TABLE traces (
        interaction_id text PRIMARY KEY,
        thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        started_at text NOT NULL,
        data json NOT NULL,
        bytes double precision NOT NULL DEFAULT 0
      );
      CREATE INDEX traces_thread ON traces (thread_id, started_at);
      CREATE TABLE turns (
        id text PRIMARY KEY,
        thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        key text NOT NULL,
        user_id text NOT NULL,
        user_text text NOT NULL,
        start_seq integer NOT NULL,
        status text NOT NULL,
        result json,
        idempotency_key text,
        created_at text NOT NULL,
        ended_at text
      );
      CREATE INDEX turns_thread ON turns (thread_id);
      CREATE INDEX turns_running ON turns (key) WHERE status = 'running';
      CREATE TABLE turn_frames (
        turn_id text NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
        position integer NOT NULL,
        key double precision NOT NULL,
        frame json NOT NULL,
        PRIMARY KEY (turn_id, position)
      );
      CREATE TABLE idempotency_keys (
        owner text NOT NULL,
        key text NOT NULL,
        caller text NOT NULL DEFAULT '',
        user_id text NOT NULL,
        text text NOT NULL,
        thread_id text,
        turn_id text,
        at double precision NOT NULL,
        PRIMARY KEY (owner, key)
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys (owner, (turn_id IS NULL), at);
      CREATE TABLE rate_buckets (
        name text PRIMARY KEY,
        tokens double precision NOT NULL,
        at double precision NOT NULL,
        granted boolean NOT NULL
      );
      CREATE TABLE settings (
        name text PRIMARY KEY,
        value jsonb NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'who started a turn, and whether it opened its thread (a new conversation resumed as the reference words it)',
    sql: `
      ALTER TABLE turns ADD COLUMN caller text NOT NULL DEFAULT '';
      ALTER TABLE turns ADD COLUMN opened_thread boolean NOT NULL DEFAULT false;
      CREATE INDEX turns_opened ON turns (key, user_id, created_at) WHERE opened_thread;
    `,
  },
  {
    version: 3,
    name: 'which instance runs a turn, and until when its lease holds',
    sql: `
      ALTER TABLE turns ADD COLUMN instance text NOT NULL DEFAULT '';
      ALTER TABLE turns ADD COLUMN lease_until double precision NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    name: 'what each key holds, counted as its threads change (no scan of its threads per request)',
    sql: `
      CREATE TABLE key_usage (
        key text PRIMARY KEY,
        threads integer NOT NULL DEFAULT 0,
        bytes double precision NOT NULL DEFAULT 0
      );
      INSERT INTO key_usage (key, threads, bytes) SELECT key, count(*), coalesce(sum(bytes), 0) FROM threads GROUP BY key;
      CREATE FUNCTION count_key_usage() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO key_usage AS u (key, threads, bytes) VALUES (NEW.key, 1, NEW.bytes)
            ON CONFLICT (key) DO UPDATE SET threads = u.threads + 1, bytes = u.bytes + NEW.bytes;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE key_usage SET threads = threads - 1, bytes = bytes - OLD.bytes WHERE key = OLD.key;
        ELSIF NEW.bytes IS DISTINCT FROM OLD.bytes THEN
          UPDATE key_usage SET bytes = bytes + NEW.bytes - OLD.bytes WHERE key = NEW.key;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER threads_key_usage AFTER INSERT OR DELETE OR UPDATE OF bytes ON threads
        FOR EACH ROW EXECUTE FUNCTION count_key_usage();
    `,
  },
  {
    version: 5,
    name: 'the visitor a thread belongs to (the user id its token was exchanged for)',
    sql: `ALTER TABLE threads ADD COLUMN visitor text;`,
  },
  {
    version: 6,
    name: 'an idempotency key claimed while its request is decided, by whichever instance has it',
    sql: `ALTER TABLE idempotency_keys ADD COLUMN pending boolean NOT NULL DEFAULT false;`,
  },
];

/** An arbitrary number all instances agree on: the lock migrations run under. */
const MIGRATION_LOCK = 7_307_305;

/**
 * Brings the schema to the newest migration; returns the numbers it applied. Refuses a
 * database that a newer server migrated (its version is past the newest this one knows):
 * running old code on it could lose what the new columns hold.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    const done = new Set(rows.map((r) => r.version));
    const newest = migrations.at(-1)?.version ?? 0;
    const ahead = rows.filter((r) => r.version > newest);
    if (ahead.length) {
      throw new Error(
        `The database was migrated by a newer server (schema version ${ahead.at(-1)!.version}; this one knows up to ${newest}). Run that version, or restore a backup.`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      // One statement at a time: pg's extended protocol (parameters) takes one per query.
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** The statements of a migration: split at `;`, but not inside a `$$`-quoted function body (none of ours has one in a string). */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quoted = false;
  for (const part of sql.split(/(\$\$|;)/)) {
    if (part === '$$') quoted = !quoted;
    if (part === ';' && !quoted) {
      statements.push(current);
      current = '';
    } else current += part;
  }
  statements.push(current);
  return statements.map((s) => s.trim()).filter(Boolean);
}
