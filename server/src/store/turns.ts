import type { Message } from '@agent-chat/wire';
import type { Trace } from '../agents/trace.js';
import type { Db, Queryable } from './db.js';
import { appendMessages } from './threads.js';
import { endTrace, startTrace } from './traces.js';
import type { Facets, LoggedFrame, TurnRecord, TurnResult, TurnStatus } from './records.js';

/**
 * Turns and their frame logs (the port). A turn is recorded as it starts (`running`) and
 * again as it ends, with its result; its frames go to its log as they stream, so a client
 * that lost the stream replays it from there, after a restart too. Only a thread's latest
 * turn keeps its frames: an older one can no longer be the one a client lost.
 *
 * Frames are written in batches (FrameLog): one statement per FLUSH_MS for every turn
 * running, not one per frame.
 */
export interface TurnStore {
  /**
   * Records a new turn and its trace, makes it its thread's latest, and lets the previous
   * turns' frames go. False, with nothing recorded, when the thread is gone (forgotten by its
   * key's budget or deleted while the request was on its way).
   */
  begin(start: TurnStart): Promise<boolean>;
  get(id: string): Promise<TurnRecord | undefined>;
  /** The frames of a turn's log after `after`, in order. */
  frames(id: string, after: number): Promise<LoggedFrame[]>;
  /** Adds frames to a turn's log (batched: `flush` waits for them). */
  log(id: string, frames: readonly LoggedFrame[]): void;
  flush(): Promise<void>;
  /** Records how a turn ended: its result, the messages it adds, its trace, its thread's seq and facets. */
  finish(end: TurnEnd): Promise<{ bytes: number }>;
  /** How many turns of a key are running (on any instance). */
  running(key: string): Promise<number>;
  /**
   * Turns recorded as running whose instance stopped renewing their lease (every one, with
   * `all`: an embedded database has one process), oldest first: the turns a stopped process
   * left.
   */
  unfinished(options?: { all?: boolean }): Promise<TurnRecord[]>;
  /** Stops renewing this instance's leases (it is stopping). */
  release(): void;
  /**
   * Resolves when turn `id` may have changed (frames added to its log, or its end recorded,
   * by whichever instance runs it: TURNS_CHANNEL), after `ms` at the latest, or as `signal`
   * aborts. Whoever waits reads the turn again: a notification is a hint, never the data.
   */
  changed(id: string, signal: AbortSignal, ms: number): Promise<void>;
  /**
   * The newest turn since `since` (an ISO time) that opened a thread for this question of this
   * user, asked by this caller: how a new conversation's stream sent again as it was, without
   * the thread it made, finds its turn.
   */
  opened(query: { key: string; caller: string; userId: string; text: string; since: string }): Promise<TurnRecord | undefined>;
}

export interface TurnStart {
  turn: TurnRecord;
  trace: Trace;
  /** The version it runs on, recorded on its thread. */
  versionId: string;
  versionTag: string;
}

export interface TurnEnd {
  id: string;
  threadId: string;
  status: Exclude<TurnStatus, 'running'>;
  result: TurnResult;
  endedAt: string;
  /** Messages the transcript gains (the question and its reply, or what a stopped turn left). */
  messages: readonly Message[];
  /** The last seq the turn handed out: the thread's numbering goes on from it. */
  lastSeq: number;
  /** Counted bytes of its frames, against its thread while it is the latest turn. */
  frameBytes: number;
  trace: Trace;
  traceBytes: number;
  /** What its trace recorded, added to its thread's. */
  facets: Facets;
}

interface TurnRow {
  id: string;
  thread_id: string;
  key: string;
  user_id: string;
  user_text: string;
  start_seq: number;
  status: TurnStatus;
  result: TurnResult | null;
  idempotency_key: string | null;
  caller: string;
  opened_thread: boolean;
  created_at: string;
  ended_at: string | null;
}

const turnOf = (row: TurnRow): TurnRecord => ({
  id: row.id,
  threadId: row.thread_id,
  key: row.key,
  userId: row.user_id,
  userText: row.user_text,
  startSeq: row.start_seq,
  status: row.status,
  result: row.result,
  idempotencyKey: row.idempotency_key,
  caller: row.caller,
  openedThread: row.opened_thread,
  createdAt: row.created_at,
  endedAt: row.ended_at,
});

/** How long frames wait to be written with others: well under what a resume after a drop waits. */
export const FLUSH_MS = 50;

/**
 * A running turn is leased to the instance running it, which renews the lease every third of
 * it while it runs; a lease not renewed for LEASE_MS (`TURN_LEASE_MS`) means that instance is
 * gone, and its turn is another's to end as interrupted.
 */
export const LEASE_MS = 30_000;

/** Adds `more` to `facets`, each kind bounded (MAX_FACET_VALUES distinct values). */
export function mergeFacets(facets: Facets, more: Facets, max = 256): Facets {
  const tools = [...new Set([...facets.tools, ...more.tools])].slice(0, max);
  const rules: Facets['rules'] = { ...facets.rules };
  for (const [code, outcomes] of Object.entries(more.rules)) {
    if (!(code in rules) && Object.keys(rules).length >= max) continue;
    rules[code] = [...new Set([...(rules[code] ?? []), ...outcomes])];
  }
  const params: Facets['params'] = { ...facets.params };
  for (const [name, values] of Object.entries(more.params)) {
    if (!(name in params) && Object.keys(params).length >= max) continue;
    params[name] = [...new Set([...(params[name] ?? []), ...values])].slice(0, max);
  }
  return { tools, rules, params };
}

/**
 * The channel on which every instance on one PostgreSQL says which turns it wrote frames or
 * an end for (a payload of turn ids, comma-separated): another instance following one of
 * them (a resume that reached it) reads the log again at once rather than at its next look.
 */
export const TURNS_CHANNEL = 'agent_chat_turns';

/**
 * The database's clock in milliseconds, for leases: every instance writes and reads them by
 * one clock, so an instance whose own clock runs behind does not write leases the others
 * take as lapsed (nor one ahead take live turns for left behind).
 */
const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)';
/** Turn ids in one notification: 300 × 25 bytes, within PostgreSQL's 8,000-byte payload. */
const IDS_PER_NOTIFICATION = 300;

export class SqlTurnStore implements TurnStore {
  /** Frames not yet written, by turn, with the position each takes in its log. */
  private pending = new Map<string, LoggedFrame[]>();
  private positions = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private renewing: ReturnType<typeof setInterval> | undefined;
  /** The turns this instance began and has not finished: the leases it renews. */
  private readonly mine = new Set<string>();
  /** This instance's name on the leases of the turns it runs. */
  readonly instance = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

  /** Who waits for which turn to change (`changed`), woken by this instance's writes and the others' notifications. */
  private readonly waiting = new Map<string, Set<() => void>>();
  private listening = false;

  constructor(
    private readonly db: Db,
    /** How long a lease lasts unless renewed (LEASE_MS). */
    readonly leaseMs = LEASE_MS,
  ) {}

  changed(id: string, signal: AbortSignal, ms: number): Promise<void> {
    if (!this.listening && this.db.listen) {
      this.listening = true;
      this.db.listen(TURNS_CHANNEL, (payload) => {
        for (const turn of payload.split(',')) this.wake(turn);
      });
    }
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const set = this.waiting.get(id) ?? new Set<() => void>();
      this.waiting.set(id, set);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (!set.size && this.waiting.get(id) === set) this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  private wake(id: string): void {
    for (const done of [...(this.waiting.get(id) ?? [])]) done();
  }

  /** Tells the other instances (and this one's followers) that these turns changed. */
  private async notify(db: Queryable, ids: readonly string[]): Promise<void> {
    for (const id of ids) this.wake(id);
    if (!this.db.listen || !ids.length) return;
    const payloads: string[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_NOTIFICATION) payloads.push(ids.slice(i, i + IDS_PER_NOTIFICATION).join(','));
    await db.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [TURNS_CHANNEL, payloads]);
  }

  /** Renews this instance's leases while it runs turns (started with its first). */
  private renew(): void {
    if (this.renewing) return;
    this.renewing = setInterval(() => {
      void this.db
        .query(`UPDATE turns SET lease_until = ${DB_NOW_MS} + $3 WHERE id = ANY($2::text[]) AND instance = $1 AND status = 'running'`, [
          this.instance,
          [...this.mine],
          this.leaseMs,
        ])
        .catch((error: unknown) => console.error('turns: a lease could not be renewed', error));
    }, this.leaseMs / 3);
    this.renewing.unref?.();
  }

  release(): void {
    clearInterval(this.renewing);
    this.renewing = undefined;
  }

  async begin({ turn, trace, versionId, versionTag }: TurnStart): Promise<boolean> {
    const recorded = await this.db.transaction(async (tx) => {
      // The thread first, locked: a budget that forgets it waits until the turn is in, and
      // then finds it running (threads.ts, idle); one forgotten before is not written to.
      const thread = await tx.query<{ latest_turn: string | null }>('SELECT latest_turn FROM threads WHERE id = $1 FOR UPDATE', [
        turn.threadId,
      ]);
      if (!thread.rows.length) return false;
      await tx.query(
        `INSERT INTO turns (id, thread_id, key, user_id, user_text, start_seq, status, idempotency_key, caller, opened_thread, created_at, instance, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $9, $10, $11, ${DB_NOW_MS} + $12)`,
        [
          turn.id,
          turn.threadId,
          turn.key,
          turn.userId,
          turn.userText,
          turn.startSeq,
          turn.idempotencyKey,
          turn.caller,
          turn.openedThread,
          turn.createdAt,
          this.instance,
          this.leaseMs,
        ],
      );
      // The previous latest turn's frames stop counting against the thread as they go.
      const before = thread.rows[0]!.latest_turn;
      if (before) {
        await tx.query('DELETE FROM turn_frames WHERE turn_id = $1', [before]);
        await tx.query(
          `UPDATE threads SET bytes = bytes - coalesce((SELECT (result ->> 'frame_bytes')::double precision FROM turns WHERE id = $2), 0) WHERE id = $1`,
          [turn.threadId, before],
        );
      }
      await tx.query('UPDATE threads SET latest_turn = $2, version_id = $3, version_tag = $4, updated_at = $5 WHERE id = $1', [
        turn.threadId,
        turn.id,
        versionId,
        versionTag,
        turn.createdAt,
      ]);
      await startTrace(tx, trace);
      return true;
    });
    if (recorded) {
      this.positions.set(turn.id, 0);
      this.mine.add(turn.id);
      this.renew();
    }
    return recorded;
  }

  async get(id: string): Promise<TurnRecord | undefined> {
    const { rows } = await this.db.query<TurnRow>('SELECT * FROM turns WHERE id = $1', [id]);
    return rows[0] ? turnOf(rows[0]) : undefined;
  }

  async frames(id: string, after: number): Promise<LoggedFrame[]> {
    await this.flush();
    const { rows } = await this.db.query<{ key: number; frame: LoggedFrame['frame'] }>(
      'SELECT key, frame FROM turn_frames WHERE turn_id = $1 AND key > $2 ORDER BY position',
      [id, after],
    );
    return rows;
  }

  log(id: string, frames: readonly LoggedFrame[]): void {
    const list = this.pending.get(id) ?? [];
    list.push(...frames);
    this.pending.set(id, list);
    this.timer ??= setTimeout(() => void this.flush().catch((error) => console.error('turn log: a write failed', error)), FLUSH_MS);
  }

  /** Writes every pending frame, in one statement; resolves when they (and any write before) are in. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size) return this.writing;
    const batch = this.pending;
    this.pending = new Map();
    const turns: string[] = [];
    const positions: number[] = [];
    const keys: number[] = [];
    const frames: string[] = [];
    // A turn another process started (one being recovered): its log goes on after what is
    // there, read when the batch is written (after every batch before it).
    const unknown = [...batch.keys()].filter((id) => !this.positions.has(id));
    for (const [id, list] of batch) {
      let position = this.positions.get(id) ?? 0;
      for (const entry of list) {
        turns.push(id);
        positions.push(position++);
        keys.push(entry.key);
        frames.push(JSON.stringify(entry.frame));
      }
      this.positions.set(id, position);
    }
    for (const id of unknown) this.positions.delete(id);
    // After a batch that failed, the next is written all the same.
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        if (unknown.length) {
          const { rows } = await this.db.query<{ turn_id: string; next: number }>(
            'SELECT turn_id, max(position) + 1 AS next FROM turn_frames WHERE turn_id = ANY($1::text[]) GROUP BY turn_id',
            [unknown],
          );
          const next = new Map(rows.map((r) => [r.turn_id, r.next]));
          for (let i = 0; i < turns.length; i++) positions[i]! += next.get(turns[i]!) ?? 0;
        }
        // A turn whose thread was forgotten meanwhile has no row to hang its frames on: they go with it.
        await this.db.query(
          `INSERT INTO turn_frames (turn_id, position, key, frame)
         SELECT f.t, f.p, f.k, f.f FROM unnest($1::text[], $2::integer[], $3::double precision[], $4::json[]) AS f (t, p, k, f)
         WHERE EXISTS (SELECT 1 FROM turns WHERE id = f.t)
         ON CONFLICT DO NOTHING`,
          [turns, positions, keys, frames],
        );
        // A notification lost costs a follower a second (it looks again), never the log.
        await this.notify(this.db, [...batch.keys()]).catch((error: unknown) =>
          console.error('turn log: a notification failed', error instanceof Error ? error.message : error),
        );
      });
    return this.writing;
  }

  async finish(end: TurnEnd): Promise<{ bytes: number }> {
    await this.flush();
    this.positions.delete(end.id);
    this.mine.delete(end.id);
    const ended = await this.db.transaction(async (tx) => {
      const thread = await tx.query<{ facets: Facets; latest_turn: string | null }>(
        'SELECT facets, latest_turn FROM threads WHERE id = $1 FOR UPDATE',
        [end.threadId],
      );
      const row = thread.rows[0];
      // Forgotten meanwhile (its key past its bounds): nothing left to record on.
      if (!row) return { bytes: 0 };
      // Only the latest turn's frames count against the thread (and are kept).
      const frameBytes = row.latest_turn === end.id ? end.frameBytes : 0;
      // Ended once: an instance that outlived its lease finds its turn ended by another (or
      // two sweeps found one turn), and records nothing more of it.
      const running = await tx.query(
        `UPDATE turns SET status = $2, result = $3::json, ended_at = $4 WHERE id = $1 AND status = 'running' RETURNING id`,
        [
          end.id,
          end.status,
          JSON.stringify(end.result.ok ? { ok: true, frame_bytes: frameBytes } : { ...end.result, frame_bytes: frameBytes }),
          end.endedAt,
        ],
      );
      if (!running.rows.length) return { bytes: 0 };
      let bytes = await appendMessages(tx, end.threadId, end.messages, end.endedAt);
      bytes += await endTrace(tx, end.trace, end.traceBytes);
      bytes += frameBytes;
      await tx.query(
        `UPDATE threads SET last_seq = greatest(last_seq, $2), facets = $3::jsonb, bytes = bytes + $4, updated_at = $5 WHERE id = $1`,
        [end.threadId, end.lastSeq, JSON.stringify(mergeFacets(row.facets, end.facets)), end.traceBytes + frameBytes, end.endedAt],
      );
      return { bytes };
    });
    // Once committed: a follower that hears it reads the end.
    await this.notify(this.db, [end.id]).catch((error: unknown) =>
      console.error('turns: a notification failed', error instanceof Error ? error.message : error),
    );
    return ended;
  }

  async running(key: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM turns WHERE key = $1 AND status = 'running'`, [
      key,
    ]);
    return rows[0]!.n;
  }

  async opened(q: { key: string; caller: string; userId: string; text: string; since: string }): Promise<TurnRecord | undefined> {
    const { rows } = await this.db.query<TurnRow>(
      `SELECT * FROM turns WHERE key = $1 AND user_id = $2 AND created_at >= $3 AND opened_thread AND caller = $4 AND user_text = $5
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [q.key, q.userId, q.since, q.caller, q.text],
    );
    return rows[0] ? turnOf(rows[0]) : undefined;
  }

  async unfinished(options: { all?: boolean } = {}): Promise<TurnRecord[]> {
    const { rows } = await this.db.query<TurnRow>(
      `SELECT * FROM turns WHERE status = 'running' AND ($1 OR lease_until < ${DB_NOW_MS}) ORDER BY created_at, id`,
      [options.all ?? false],
    );
    return rows.map(turnOf);
  }
}
