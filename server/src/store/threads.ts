import type { Message } from '@agent-chat/wire';
import type { Db, Queryable } from './db.js';
import { MAX_MESSAGES_PER_THREAD, sizeOf } from './limits.js';
import type { Facets, ThreadRecord } from './records.js';

/**
 * Threads and their transcripts (the port). A thread belongs to an agent and counts against
 * the publishable key it was made with; its messages are kept in order, at most
 * MAX_MESSAGES_PER_THREAD (the oldest go first).
 */
export interface ThreadStore {
  create(thread: ThreadRecord): Promise<ThreadRecord>;
  /** The thread; `touch` moves it to the end of its key's least-recently-used order. */
  get(id: string, options?: { touch?: number }): Promise<ThreadRecord | undefined>;
  /** Changes the fields given (management's PATCH, a turn's version); undefined when it is gone. */
  update(id: string, patch: ThreadPatch): Promise<ThreadRecord | undefined>;
  messages(id: string): Promise<Message[]>;
  /** Adds messages at the end (a turn's, a channel's opening, a branch's copies); drops the oldest past the bound. */
  append(id: string, messages: readonly Message[], now: string): Promise<void>;
  /** What a key holds: its threads and their counted bytes. */
  usage(key: string): Promise<{ threads: number; bytes: number }>;
  /**
   * The key's threads, least recently used first, that may be forgotten: none with a turn
   * running or being opened (OPENING_MS), never `keep`.
   */
  idle(key: string, keep: string | undefined, limit: number): Promise<IdleThread[]>;
  /**
   * Forgets threads `idle` listed, with everything they hold (messages, traces, turns,
   * frames), unless a turn began on one since (its latest turn changed): the ids forgotten.
   */
  forget(threads: readonly IdleThread[]): Promise<string[]>;
  /** Drops the oldest messages of one thread (down to its last two) until `bytes` are freed; the ids of those gone. */
  trim(id: string, bytes: number): Promise<string[]>;
  list(query: ThreadQuery): Promise<ThreadRecord[]>;
  /** Whether any thread of `query`'s scope lies beyond `at` in the given direction (the list's other cursor). */
  exists(query: ThreadQuery, side: 'after' | 'before', at: ThreadPosition): Promise<boolean>;
  /** Every thread and their bytes (the health check's figures). */
  totals(): Promise<{ threads: number; bytes: number }>;
}

export interface IdleThread {
  id: string;
  bytes: number;
  /** Its latest turn when it was listed: a turn that began since makes it busy. */
  latestTurn: string | null;
}

/**
 * A thread with neither messages nor a turn, made this recently, is being opened: the turn
 * that made it is on its way (turns.ts, begin), so no budget forgets it meanwhile. One whose
 * turn never came is forgotten like any other after this.
 */
export const OPENING_MS = 60_000;

/** A thread `t` that may be forgotten at `$now - OPENING_MS` (parameter `now`). */
const idleAt = (now: string) => `NOT EXISTS (SELECT 1 FROM turns u WHERE u.thread_id = t.id AND u.status = 'running')
         AND NOT (t.latest_turn IS NULL AND t.message_count = 0 AND t.used_at > ${now})`;

export type ThreadPatch = Partial<
  Pick<ThreadRecord, 'title' | 'userId' | 'externalId' | 'welcome' | 'suggestions' | 'updatedAt' | 'versionId' | 'versionTag' | 'channels'>
> & {
  /** Counted bytes the change adds (or, negative, frees): what the thread holds counts against its key. */
  grow?: number;
};

export interface ThreadPosition {
  value: string;
  id: string;
}

/** The thread list's query (management/thread-list.ts reads it from the URL). */
export interface ThreadQuery {
  /** The agents the caller may see; undefined: every agent. */
  visibleAgents?: readonly string[];
  projectId?: string;
  agentIds?: readonly string[];
  userId?: string;
  externalId?: string;
  /** ISO times, both ends included. */
  created?: { from: string; to?: string };
  tools?: readonly string[];
  rules?: ReadonlyArray<{ code: string; outcome?: string }>;
  params?: ReadonlyArray<{ key: string; op: ':' | '>' | '<' | '>=' | '<='; value: string | number | null }>;
  sortBy: 'created_at' | 'updated_at';
  order: 'asc' | 'desc';
  /** Rows after this position in the order (page[after]) or before it (page[before]). */
  after?: ThreadPosition;
  before?: ThreadPosition;
  limit: number;
}

interface ThreadRow {
  id: string;
  agent_id: string;
  project_id: string;
  key: string;
  user_id: string;
  visitor: string | null;
  title: string | null;
  created_at: string;
  updated_at: string;
  version_id: string;
  version_tag: string;
  pinned: boolean;
  external_id: string | null;
  welcome: string | null;
  suggestions: string[] | null;
  last_seq: number;
  latest_turn: string | null;
  branched_from: ThreadRecord['branchedFrom'];
  channels: ThreadRecord['channels'];
  facets: Facets;
  message_count: number;
  bytes: number;
}

export const EMPTY_FACETS: Facets = { tools: [], rules: {}, params: {} };

export function threadOf(row: ThreadRow): ThreadRecord {
  return {
    id: row.id,
    agentId: row.agent_id,
    projectId: row.project_id,
    key: row.key,
    userId: row.user_id,
    visitor: row.visitor,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    versionId: row.version_id,
    versionTag: row.version_tag,
    pinned: row.pinned,
    externalId: row.external_id,
    welcome: row.welcome,
    suggestions: row.suggestions,
    lastSeq: row.last_seq,
    latestTurn: row.latest_turn,
    branchedFrom: row.branched_from,
    channels: row.channels ?? [],
    facets: { ...EMPTY_FACETS, ...row.facets },
    messageCount: row.message_count,
    bytes: row.bytes,
  };
}

const PATCH_COLUMNS: Record<Exclude<keyof ThreadPatch, 'grow'>, string> = {
  title: 'title',
  userId: 'user_id',
  externalId: 'external_id',
  welcome: 'welcome',
  suggestions: 'suggestions',
  updatedAt: 'updated_at',
  versionId: 'version_id',
  versionTag: 'version_tag',
  channels: 'channels',
};
const JSON_COLUMNS = new Set(['suggestions', 'channels']);

/** Adds messages to a thread inside a caller's transaction; the bytes they add. */
export async function appendMessages(db: Queryable, id: string, messages: readonly Message[], now: string): Promise<number> {
  if (!messages.length) return 0;
  const { rows } = await db.query<{ next: number }>('SELECT coalesce(max(position), 0) + 1 AS next FROM messages WHERE thread_id = $1', [
    id,
  ]);
  const first = rows[0]!.next;
  const sizes = messages.map(sizeOf);
  await db.query(
    `INSERT INTO messages (thread_id, position, id, data, bytes)
     SELECT $1, p, i, d, b FROM unnest($2::integer[], $3::text[], $4::json[], $5::double precision[]) AS m (p, i, d, b)`,
    [id, messages.map((_, n) => first + n), messages.map((m) => m.id), messages.map((m) => JSON.stringify(m)), sizes],
  );
  let added = sizes.reduce((a, b) => a + b, 0);
  // Past the bound the oldest go (a branch copies at most this many too).
  const excess = await db.query<{ bytes: number }>(
    `DELETE FROM messages WHERE thread_id = $1 AND position <= $2::integer - $3::integer RETURNING bytes`,
    [id, first + messages.length - 1, MAX_MESSAGES_PER_THREAD],
  );
  for (const gone of excess.rows) added -= gone.bytes;
  await db.query(
    `UPDATE threads SET message_count = (SELECT count(*) FROM messages WHERE thread_id = $1), bytes = bytes + $2, updated_at = $3 WHERE id = $1`,
    [id, added, now],
  );
  return added;
}

export class SqlThreadStore implements ThreadStore {
  constructor(private readonly db: Db) {}

  async create(t: ThreadRecord): Promise<ThreadRecord> {
    await this.db.query(
      `INSERT INTO threads (id, agent_id, project_id, key, user_id, title, created_at, updated_at, used_at, version_id, version_tag,
         pinned, external_id, welcome, suggestions, last_seq, latest_turn, branched_from, channels, facets, message_count, bytes, visitor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, $18::jsonb, $19::jsonb, $20::jsonb, 0, $21, $22)`,
      [
        t.id,
        t.agentId,
        t.projectId,
        t.key,
        t.userId,
        t.title,
        t.createdAt,
        t.updatedAt,
        Date.parse(t.createdAt),
        t.versionId,
        t.versionTag,
        t.pinned,
        t.externalId,
        t.welcome,
        t.suggestions === null ? null : JSON.stringify(t.suggestions),
        t.lastSeq,
        t.latestTurn,
        t.branchedFrom === null ? null : JSON.stringify(t.branchedFrom),
        JSON.stringify(t.channels),
        JSON.stringify(t.facets),
        t.bytes,
        t.visitor,
      ],
    );
    return { ...t, messageCount: 0 };
  }

  async get(id: string, options: { touch?: number } = {}): Promise<ThreadRecord | undefined> {
    const { rows } =
      options.touch === undefined
        ? await this.db.query<ThreadRow>('SELECT * FROM threads WHERE id = $1', [id])
        : await this.db.query<ThreadRow>('UPDATE threads SET used_at = greatest(used_at, $2) WHERE id = $1 RETURNING *', [
            id,
            options.touch,
          ]);
    return rows[0] ? threadOf(rows[0]) : undefined;
  }

  async update(id: string, patch: ThreadPatch): Promise<ThreadRecord | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    for (const [field, value] of Object.entries(patch) as Array<[keyof ThreadPatch, unknown]>) {
      if (value === undefined) continue;
      if (field === 'grow') {
        params.push(value);
        sets.push(`bytes = bytes + $${params.length}::double precision`);
        continue;
      }
      const column = PATCH_COLUMNS[field];
      params.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`);
    }
    if (!sets.length) return this.get(id);
    const { rows } = await this.db.query<ThreadRow>(`UPDATE threads SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
    return rows[0] ? threadOf(rows[0]) : undefined;
  }

  async messages(id: string): Promise<Message[]> {
    const { rows } = await this.db.query<{ data: Message }>('SELECT data FROM messages WHERE thread_id = $1 ORDER BY position', [id]);
    return rows.map((r) => r.data);
  }

  async append(id: string, messages: readonly Message[], now: string): Promise<void> {
    await this.db.transaction((tx) => appendMessages(tx, id, messages, now));
  }

  async usage(key: string): Promise<{ threads: number; bytes: number }> {
    // Counted as threads change (schema.ts, migration 4): no scan of the key's threads.
    const { rows } = await this.db.query<{ threads: number; bytes: number }>('SELECT threads, bytes FROM key_usage WHERE key = $1', [key]);
    return rows[0] ?? { threads: 0, bytes: 0 };
  }

  async idle(key: string, keep: string | undefined, limit: number): Promise<IdleThread[]> {
    const { rows } = await this.db.query<IdleThread>(
      `SELECT t.id, t.bytes, t.latest_turn AS "latestTurn" FROM threads t
       WHERE t.key = $1 AND t.id <> $2 AND ${idleAt('$4')}
       ORDER BY t.used_at, t.id LIMIT $3`,
      [key, keep ?? '', limit, Date.now() - OPENING_MS],
    );
    return rows;
  }

  async forget(threads: readonly IdleThread[]): Promise<string[]> {
    if (!threads.length) return [];
    // The latest turn compared on the row itself: a DELETE that waited for a turn's begin
    // (which locks the row) sees the row as that left it and passes it by.
    const { rows } = await this.db.query<{ id: string }>(
      `DELETE FROM threads t USING unnest($1::text[], $2::text[]) AS f (id, latest_turn)
       WHERE t.id = f.id AND t.latest_turn IS NOT DISTINCT FROM f.latest_turn AND ${idleAt('$3')}
       RETURNING t.id`,
      [threads.map((t) => t.id), threads.map((t) => t.latestTurn), Date.now() - OPENING_MS],
    );
    return rows.map((r) => r.id);
  }

  async trim(id: string, bytes: number): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ position: number; id: string; bytes: number }>(
        'SELECT position, id, bytes FROM messages WHERE thread_id = $1 ORDER BY position',
        [id],
      );
      let freed = 0;
      let drop = 0;
      while (freed < bytes && drop < rows.length - 2) freed += rows[drop++]!.bytes;
      if (!drop) return [];
      const gone = rows.slice(0, drop);
      await tx.query('DELETE FROM messages WHERE thread_id = $1 AND position <= $2', [id, gone.at(-1)!.position]);
      const left = new Set(rows.slice(drop).map((r) => r.id));
      // The traces of the turns that went, their last message gone with them.
      const traces = [...new Set(gone.map((m) => m.id))].filter((m) => !left.has(m));
      const dropped = traces.length
        ? await tx.query<{ bytes: number }>(
            'DELETE FROM traces WHERE thread_id = $1 AND interaction_id = ANY($2::text[]) RETURNING bytes',
            [id, traces],
          )
        : { rows: [] };
      for (const trace of dropped.rows) freed += trace.bytes;
      await tx.query(`UPDATE threads SET message_count = message_count - $2, bytes = bytes - $3 WHERE id = $1`, [id, drop, freed]);
      return traces;
    });
  }

  async list(query: ThreadQuery): Promise<ThreadRecord[]> {
    const { where, params } = filters(query);
    const column = query.sortBy;
    // A page before a cursor is read backwards from it, then turned round.
    const backwards = query.before !== undefined;
    const ascending = (query.order === 'asc') !== backwards;
    const at = query.after ?? query.before;
    if (at) {
      params.push(at.value, at.id);
      where.push(`(${column}, id) ${ascending ? '>' : '<'} ($${params.length - 1}, $${params.length})`);
    }
    params.push(query.limit);
    const direction = ascending ? 'ASC' : 'DESC';
    const { rows } = await this.db.query<ThreadRow>(
      `SELECT * FROM threads WHERE ${where.join(' AND ') || 'true'} ORDER BY ${column} ${direction}, id ${direction} LIMIT $${params.length}`,
      params,
    );
    const threads = rows.map(threadOf);
    return backwards ? threads.reverse() : threads;
  }

  async exists(query: ThreadQuery, side: 'after' | 'before', at: ThreadPosition): Promise<boolean> {
    const { where, params } = filters(query);
    const forward = (query.order === 'asc') === (side === 'after');
    params.push(at.value, at.id);
    where.push(`(${query.sortBy}, id) ${forward ? '>' : '<'} ($${params.length - 1}, $${params.length})`);
    const { rows } = await this.db.query(`SELECT 1 FROM threads WHERE ${where.join(' AND ')} LIMIT 1`, params);
    return rows.length > 0;
  }

  async totals(): Promise<{ threads: number; bytes: number }> {
    const { rows } = await this.db.query<{ threads: number; bytes: number }>(
      'SELECT coalesce(sum(threads), 0)::integer AS threads, coalesce(sum(bytes), 0)::double precision AS bytes FROM key_usage',
    );
    return rows[0]!;
  }
}

/**
 * The WHERE clauses of a list query: values OR within one parameter, AND across them. The
 * `tool`, `rule` and `param` filters read the thread's facets (what its traces recorded).
 */
function filters(q: ThreadQuery): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (q.visibleAgents) where.push(`agent_id = ANY(${param(q.visibleAgents)}::text[])`);
  if (q.projectId !== undefined) where.push(`project_id = ${param(q.projectId)}`);
  if (q.agentIds) where.push(`agent_id = ANY(${param(q.agentIds)}::text[])`);
  if (q.userId !== undefined) where.push(`user_id = ${param(q.userId)}`);
  if (q.externalId !== undefined) where.push(`external_id = ${param(q.externalId)}`);
  if (q.created) {
    where.push(`created_at >= ${param(q.created.from)}`);
    if (q.created.to !== undefined) where.push(`created_at <= ${param(q.created.to)}`);
  }
  if (q.tools) where.push(`facets -> 'tools' ?| ${param(q.tools)}::text[]`);
  if (q.rules) {
    where.push(
      `(${q.rules
        .map((r) => (r.outcome ? `facets -> 'rules' -> ${param(r.code)} ? ${param(r.outcome)}` : `facets -> 'rules' ? ${param(r.code)}`))
        .join(' OR ')})`,
    );
  }
  if (q.params) {
    where.push(
      `(${q.params
        .map((p) => {
          const key = param(p.key);
          if (p.value === null) return `facets -> 'params' ? ${key}`;
          const values = `jsonb_array_elements(coalesce(facets -> 'params' -> ${key}, '[]'::jsonb)) AS v (value)`;
          if (p.op === ':') return `EXISTS (SELECT 1 FROM ${values} WHERE v.value #>> '{}' = ${param(String(p.value))})`;
          return `EXISTS (SELECT 1 FROM ${values} WHERE jsonb_typeof(v.value) = 'number' AND (v.value #>> '{}')::double precision ${p.op} ${param(p.value)})`;
        })
        .join(' OR ')})`,
    );
  }
  return { where, params };
}
