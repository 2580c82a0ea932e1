import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable } from './db.js';

/**
 * The embedded PostgreSQL (PGlite) in a worker thread of its own. PGlite is PostgreSQL
 * compiled to WebAssembly: each statement runs synchronously in the thread that calls it,
 * and a batch of 500 frames takes about 8 ms there. In the server's own thread that time
 * would be taken from every open stream (BENCHMARKS.md, "The server"); in a worker it is
 * not. The server's thread sends each statement as a message and awaits the rows.
 *
 * The worker is a short script evaluated from the string below (not a file): the same code
 * then runs from `dist/`, under `tsx` and under the tests, with no build step of its own.
 * It holds one PGlite; a transaction holds it (PGlite's own lock) from `begin` to `commit`
 * or `rollback`, so other statements wait, as on one connection to a server.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let pg;
const open = new Map();
let next = 0;
const failure = (error) => ({
  message: error && error.message ? String(error.message) : String(error),
  code: error && error.code, detail: error && error.detail, constraint: error && error.constraint,
});
parentPort.on('message', async ({ id, op, sql, params, tx }) => {
  const reply = (value) => parentPort.postMessage({ id, ...value });
  try {
    if (op === 'open') {
      const { PGlite } = await import(workerData.pglite);
      pg = await PGlite.create(workerData.location);
      reply({});
    } else if (op === 'query') {
      const on = tx === undefined ? pg : open.get(tx).tx;
      const result = await on.query(sql, params);
      reply({ rows: result.rows });
    } else if (op === 'begin') {
      const n = next++;
      const entry = {};
      open.set(n, entry);
      entry.done = pg.transaction((handle) => new Promise((resolve, reject) => {
        Object.assign(entry, { tx: handle, resolve, reject });
        reply({ tx: n });
      }));
      // A BEGIN that failed: the caller is still waiting for its answer.
      entry.done.catch((error) => {
        if (!entry.tx) { open.delete(n); reply({ error: failure(error) }); }
      });
    } else if (op === 'commit' || op === 'rollback') {
      const entry = open.get(tx);
      open.delete(tx);
      if (op === 'commit') entry.resolve(); else entry.reject(new Error('rolled back'));
      await entry.done.catch((error) => { if (op === 'commit') throw error; });
      reply({});
    } else if (op === 'close') {
      await pg.close();
      reply({});
    }
  } catch (error) {
    reply({ error: failure(error) });
  }
});
`;

interface Reply {
  id: number;
  rows?: unknown[];
  tx?: number;
  error?: { message: string; code?: string; detail?: string; constraint?: string };
}

/** Opens PGlite at `location` (a folder, or `memory://`) in a worker thread. */
export async function openWorkerEmbedded(location: string, description: string): Promise<Db> {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const worker = new Worker(WORKER, { eval: true, workerData: { location, pglite } });
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let ids = 0;
  let stopped: Error | undefined;
  // The worker keeps the process alive only while a statement is on its way: an idle
  // database never holds a process that is otherwise done.
  worker.unref();
  const settle = (reply: Reply) => {
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (!waiting.size) worker.unref();
    if (reply.error) call.reject(Object.assign(new Error(reply.error.message), reply.error));
    else call.resolve(reply);
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const call of waiting.values()) call.reject(stopped);
    waiting.clear();
  };
  worker.on('message', settle);
  worker.on('error', (error) => stop(new Error(`the embedded database stopped: ${error.message}`)));
  worker.on('exit', () => stop(new Error('the embedded database is closed')));

  const call = (message: { op: string; sql?: string; params?: unknown[]; tx?: number }): Promise<Reply> => {
    if (stopped) return Promise.reject(stopped);
    const id = ids++;
    if (!waiting.size) worker.ref();
    return new Promise<Reply>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  const query =
    (tx?: number) =>
    async <T>(sql: string, params: readonly unknown[] = []): Promise<{ rows: T[] }> => {
      const reply = await call({ op: 'query', sql, params: [...params], ...(tx === undefined ? {} : { tx }) });
      return { rows: reply.rows as T[] };
    };

  try {
    await call({ op: 'open' });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    kind: 'embedded',
    description,
    query: query(),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const { tx } = await call({ op: 'begin' });
      let result: T;
      try {
        result = await work({ query: query(tx) });
      } catch (error) {
        await call({ op: 'rollback', tx: tx! }).catch(() => {});
        throw error;
      }
      await call({ op: 'commit', tx: tx! });
      return result;
    },
    async close() {
      if (stopped) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}
