import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The database the stores run their SQL on: an embedded PostgreSQL (PGlite, PostgreSQL
 * compiled to WebAssembly, in a data folder or in memory) by default, so a fresh machine
 * needs no setup, or a PostgreSQL server through `pg` (`DATABASE_URL`). Both run the same
 * SQL: the stores are written once, against this interface.
 *
 * Values cross it as JSON-friendly types only: text, integers, doubles, booleans and
 * JSON (times are ISO 8601 text, `Date#toISOString()`, which sorts as it reads), so both
 * drivers return the same rows.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  /** `embedded` (PGlite: one connection, in a worker thread of this process, embedded.ts) or `postgres` (a server, a pool). */
  readonly kind: 'embedded' | 'postgres';
  /** Where it is, for the start-up banner: a folder, `memory://`, or the server without its password. */
  readonly description: string;
  /** Runs `work` in one transaction: all of its statements, or none. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `heard` with the payload of each notification on `channel` (`NOTIFY`, sent by any
   * process on the same database); the returned function stops it. Absent on the embedded
   * database: one process has it, so there is nobody else to hear from.
   */
  listen?(channel: string, heard: (payload: string) => void): () => void;
  close(): Promise<void>;
}

/** `memory://` (nothing kept), a folder (`DATA_DIR`), or `postgres://…` (`DATABASE_URL`). */
export type DatabaseLocation = string;

export const MEMORY = 'memory://';

/** The folder `npm run server` keeps its data in when neither `DATA_DIR` nor `DATABASE_URL` says otherwise. */
export const DEFAULT_DATA_DIR = 'agent-chat-data';

/**
 * Where `npm run server` keeps its data: `DATABASE_URL` (a PostgreSQL server) when set, else
 * `DATA_DIR` (a folder for the embedded PostgreSQL, `memory://` for nothing kept), else
 * `agent-chat-data` under the working directory.
 */
export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseLocation {
  const url = env['DATABASE_URL']?.trim();
  if (url) {
    if (!isPostgresUrl(url)) throw new Error(`DATABASE_URL must be a postgres:// URL, not "${url.replace(/:[^:@/]*@/, ':…@')}".`);
    return url;
  }
  return env['DATA_DIR']?.trim() || DEFAULT_DATA_DIR;
}

const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/** The location without credentials, for logs. */
export function describeLocation(location: DatabaseLocation): string {
  if (!isPostgresUrl(location)) return location === MEMORY ? MEMORY : resolve(location);
  try {
    const url = new URL(location);
    url.password = '';
    url.username = url.username ? url.username : '';
    return url.href.replace(/:@/, '@');
  } catch {
    return 'postgres://…';
  }
}

/**
 * Opens the database at `location`. PGlite and `pg` are loaded here, on demand: a server on
 * PostgreSQL never loads the WebAssembly build, and an embedded one never loads `pg`.
 */
export async function openDb(location: DatabaseLocation, options: { schema?: string } = {}): Promise<Db> {
  return isPostgresUrl(location) ? openPostgres(location, options.schema) : openEmbedded(location);
}

async function openEmbedded(location: string): Promise<Db> {
  if (location !== MEMORY) mkdirSync(location, { recursive: true });
  const { openWorkerEmbedded } = await import('./embedded.js');
  return openWorkerEmbedded(location === MEMORY ? MEMORY : resolve(location), describeLocation(location));
}

/**
 * A pool of connections to a PostgreSQL server; with `schema`, every connection works in
 * that schema (made if missing), so one database can hold several servers' data apart.
 */
async function openPostgres(url: string, schema?: string): Promise<Db> {
  const { default: pg } = await import('pg');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Not a schema name: "${schema}".`);
  if (schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env['DATABASE_POOL_SIZE'] ?? 10),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle connection the server dropped is not this process's failure: the pool makes another.
  pool.on('error', (error) => console.error('database: an idle connection failed', error.message));
  // Fail at start, with the driver's own words, rather than at the first request.
  const client = await pool.connect();
  client.release();
  const notifications = listening(
    () => new pg.Client({ connectionString: url, ...(schema ? { options: `-c search_path=${schema}` } : {}) }),
  );
  return {
    kind: 'postgres',
    description: describeLocation(url),
    query: async <T>(sql: string, params: readonly unknown[] = []) => {
      const result = await pool.query(sql, [...params]);
      return { rows: result.rows as T[] };
    },
    async transaction(work) {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        const result = await work({
          query: async <T>(sql: string, params: readonly unknown[] = []) => ({
            rows: (await connection.query(sql, [...params])).rows as T[],
          }),
        });
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    listen: notifications.listen,
    async close() {
      notifications.close();
      await pool.end();
    },
  };
}

/** What `listening` needs of a `pg.Client`. */
interface ListeningClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** How long a lost listening connection waits before it is made again. */
const RELISTEN_MS = 1_000;

/**
 * One connection of its own (a pooled one would be handed to others) that LISTENs to every
 * channel asked for, opened with the first and made again when it is lost. Notifications
 * sent while it was gone are not heard: whoever listens also looks again now and then.
 */
function listening(connect: () => ListeningClient) {
  const channels = new Map<string, Set<(payload: string) => void>>();
  let client: ListeningClient | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;

  const open = (): Promise<void> =>
    (opening ??= (async () => {
      const next = connect();
      next.on('notification', ({ channel, payload }) => {
        for (const heard of channels.get(channel) ?? []) heard(payload ?? '');
      });
      next.on('error', (error) => console.error('database: the listening connection failed', error.message));
      next.on('end', () => {
        if (client === next) client = undefined;
        if (closed || !channels.size) return;
        setTimeout(() => {
          if (!closed) void open().catch(() => {});
        }, RELISTEN_MS).unref();
      });
      try {
        await next.connect();
        // Closed while it connected: nobody is to listen any more.
        if (closed) return void (await next.end());
        for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
        client = next;
      } catch (error) {
        console.error('database: could not listen', (error as Error).message);
        await next.end().catch(() => {});
      } finally {
        opening = undefined;
      }
    })());

  return {
    listen(channel: string, heard: (payload: string) => void): () => void {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a channel name: "${channel}".`);
      let set = channels.get(channel);
      if (!set) {
        channels.set(channel, (set = new Set()));
        // Listening twice to one channel is harmless; missing one is not.
        void (client ? Promise.resolve() : open()).then(() => client?.query(`LISTEN ${channel}`)).catch(() => {});
      }
      set.add(heard);
      return () => {
        set.delete(heard);
      };
    },
    close(): void {
      closed = true;
      void client?.end().catch(() => {});
      client = undefined;
    },
  };
}
