import type { Trace } from '../agents/trace.js';
import type { Queryable } from './db.js';

/**
 * Traces (the port): what each turn did, step by step, kept from the turn's start (status
 * `running`) and saved whole when it ends. A thread keeps at most MAX_TRACES_PER_THREAD,
 * the oldest going first.
 */
export interface TraceStore {
  get(interactionId: string): Promise<Trace | undefined>;
  /** A thread's traces, oldest first. */
  forThread(threadId: string): Promise<Trace[]>;
}

/** Traces one thread keeps (one per turn: as many as its messages can hold); the oldest go first. */
export const MAX_TRACES_PER_THREAD = 1000;

/** Records a turn's trace as it starts, inside the caller's transaction; older ones past the bound go. */
export async function startTrace(db: Queryable, trace: Trace): Promise<void> {
  // One statement: the delete sees the traces before this one, so it keeps one fewer of them.
  const { rows } = await db.query<{ freed: number }>(
    `WITH gone AS (
       DELETE FROM traces WHERE interaction_id IN (
         SELECT interaction_id FROM traces WHERE thread_id = $2 ORDER BY started_at DESC, interaction_id DESC OFFSET $5
       ) RETURNING bytes
     ), added AS (
       INSERT INTO traces (interaction_id, thread_id, started_at, data, bytes) VALUES ($1, $2, $3, $4::json, 0)
     )
     SELECT coalesce(sum(bytes), 0) AS freed FROM gone`,
    [trace.interaction_id, trace.thread_id, trace.started_at, JSON.stringify(trace), MAX_TRACES_PER_THREAD - 1],
  );
  const freed = Number(rows[0]?.freed ?? 0);
  if (freed) await db.query('UPDATE threads SET bytes = bytes - $2 WHERE id = $1', [trace.thread_id, freed]);
}

/** Saves a turn's trace as it ended, inside the caller's transaction; `bytes` count against its thread from now on. */
export async function endTrace(db: Queryable, trace: Trace, bytes: number): Promise<number> {
  const { rows } = await db.query('UPDATE traces SET data = $2::json, bytes = $3 WHERE interaction_id = $1 RETURNING 1', [
    trace.interaction_id,
    JSON.stringify(trace),
    bytes,
  ]);
  return rows.length ? bytes : 0;
}

export class SqlTraceStore implements TraceStore {
  constructor(private readonly db: Queryable) {}

  async get(interactionId: string): Promise<Trace | undefined> {
    const { rows } = await this.db.query<{ data: Trace }>('SELECT data FROM traces WHERE interaction_id = $1', [interactionId]);
    return rows[0]?.data;
  }

  async forThread(threadId: string): Promise<Trace[]> {
    const { rows } = await this.db.query<{ data: Trace }>(
      'SELECT data FROM traces WHERE thread_id = $1 ORDER BY started_at, interaction_id',
      [threadId],
    );
    return rows.map((r) => r.data);
  }
}
