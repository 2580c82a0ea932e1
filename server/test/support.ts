import { afterAll, beforeAll } from 'vitest';
import { createReferenceServer, DEV_ORGANIZATION_API_KEY, type AppOptions } from '../src/app.js';
import type { FaultPlan, KeyStats } from '../src/faults/plan.js';
import { MEMORY, openDb, type Db } from '../src/store/db.js';
import { migrate } from '../src/store/schema.js';
import type { ErrorEnvelope } from '@agent-chat/wire';

/**
 * The reference server in Node, driven through `app.fetch`: no socket, no port. Each call
 * builds an independent instance (own data, own secret): a schema of its own in the test
 * file's embedded PostgreSQL (testDb).
 */
export const ORIGIN = 'http://reference.test';

let shared: Promise<Db> | undefined;
let schemas = 0;

/** A database of this test file's own: an embedded PostgreSQL in memory, opened once per file, since opening one takes seconds. */
function sharedDb(): Promise<Db> {
  shared ??= openDb(MEMORY);
  return shared;
}

/**
 * A fresh, migrated database for one server: a schema of its own in the file's database, so
 * servers of one file see nothing of each other's. Queries take turns on the one connection
 * (PGlite has one anyway), each run in its server's schema.
 */
export async function testDb(): Promise<Db> {
  const db = await sharedDb();
  const schema = `test_${process.pid}_${++schemas}`;
  const inSchema = async <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(async () => {
      if (active !== schema) {
        await db.query(`SET search_path TO ${schema}`);
        active = schema;
      }
      return work();
    });
    turn = run.then(
      () => {},
      () => {},
    );
    return run;
  };
  await db.query(`CREATE SCHEMA ${schema}`);
  const scoped: Db = {
    kind: db.kind,
    description: `${db.description} (schema ${schema})`,
    query: (sql, params) => inSchema(() => db.query(sql, params)),
    transaction: (work) => inSchema(() => db.transaction(work)),
    close: async () => {},
  };
  await migrate(scoped);
  return scoped;
}
/** The one connection's turn and the schema it is set to, whichever server asks. */
let turn: Promise<void> = Promise.resolve();
let active = '';

/** The PostgreSQL server of `TEST_DATABASE_URL` (`.ci/run` starts one), when there is one. */
const serverUrl = process.env['TEST_DATABASE_URL'];

/** The databases a suite that depends on them runs against: the embedded one, and a server's when there is one. */
export const DATABASES: ReadonlyArray<'embedded' | 'postgres'> = serverUrl ? ['embedded', 'postgres'] : ['embedded'];

/** Schemas made on the PostgreSQL server, dropped after the file. */
const onServer: Array<{ db: Db; schema: string }> = [];

/**
 * A fresh, migrated schema of its own on the PostgreSQL server, through a pool of
 * connections: statements of concurrent requests interleave there as they do in production.
 */
async function serverDb(): Promise<Db> {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set.');
  const schema = `test_${process.pid}_${Date.now()}_${++schemas}`;
  const db = await openDb(serverUrl, { schema });
  onServer.push({ db, schema });
  await migrate(db);
  return db;
}

// Opened before the file's first test, outside its timeout: PGlite boots in seconds.
beforeAll(async () => {
  await sharedDb();
});
afterAll(async () => {
  if (shared) await (await shared).close();
  shared = undefined;
  for (const { db, schema } of onServer.splice(0)) {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
});

export interface Call {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** A reference server; `database: 'postgres'` puts it on the PostgreSQL server (DATABASES). */
export async function reference({ database = 'embedded', ...options }: AppOptions & { database?: 'embedded' | 'postgres' } = {}) {
  const db = options.db ?? (database === 'postgres' ? await serverDb() : await testDb());
  const server = await createReferenceServer({
    paceMs: 0,
    faults: true,
    organizationApiKey: DEV_ORGANIZATION_API_KEY,
    allowedHosts: [new URL(ORIGIN).hostname],
    ...options,
    db,
  });
  const call = (path: string, { method, body, token, headers = {} }: Call = {}): Promise<Response> => {
    const all: Record<string, string> = { ...headers };
    if (token) all['authorization'] = `Bearer ${token}`;
    if (body !== undefined) all['content-type'] ??= 'application/json';
    return Promise.resolve(
      server.app.fetch(
        new Request(ORIGIN + path, {
          method: method ?? (body === undefined ? 'GET' : 'POST'),
          headers: all,
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    );
  };
  const json = async <T>(path: string, init: Call = {}): Promise<T> => {
    const res = await call(path, init);
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const token = async (publishableKey: string): Promise<string> =>
    (await json<{ access_token: string }>('/management/v1/auth/token', { body: { publishable_key: publishableKey } })).access_token;
  /** A minted key with its plan, and a token for it. */
  const mint = async (plan: FaultPlan = {}) => {
    const { publishable_key: key, agent_id: agentId } = await json<{ publishable_key: string; agent_id: string }>('/__demo/keys', {
      body: plan,
    });
    return { key, agentId, token: await token(key) };
  };
  const stats = (key: string) => json<Required<KeyStats>>(`/__demo/keys/${key}/stats`);
  /** A REST turn on a new thread (or `threadId`'s): the thread's id and the reply. */
  const send = async (token: string, text: string, threadId?: string, userId = 'user-1') =>
    json<{ thread_id: string; message: { id: string; text: string } }>('/messaging/v1/messages', {
      token,
      body: { text, user_id: userId, ...(threadId ? { thread_id: threadId } : {}) },
    });
  return { server, db, call, json, token, mint, stats, send };
}

/** The envelope every failure carries, its request id the header's; returns its `error`. */
export async function envelope(res: Response, status: number, code?: string): Promise<ErrorEnvelope['error']> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as ErrorEnvelope;
  if (typeof body.error?.message !== 'string') throw new Error(`no envelope: ${text.slice(0, 300)}`);
  if (!body.error.request_id || body.error.request_id !== res.headers.get('x-request-id')) {
    throw new Error(`request_id ${body.error.request_id} is not the header's ${res.headers.get('x-request-id')}`);
  }
  if (code !== undefined && body.error.code !== code) throw new Error(`expected code ${code}, got ${body.error.code}`);
  return body.error;
}

/** Runs `count` tasks, `width` at a time. */
export async function inBatches(count: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, j) => task(start + j)));
  }
}
