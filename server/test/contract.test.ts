import type { Message } from '@agent-chat/wire';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Trace } from '../src/agents/trace.js';
import { newDemoAgent } from '../src/agents/versions.js';
import { newHexId } from '../src/http/ids.js';
import { MEMORY, openDb, type Db } from '../src/store/db.js';
import { storesOn, type Stores } from '../src/store/index.js';
import { MAX_MESSAGES_PER_THREAD, THREAD_OVERHEAD_BYTES } from '../src/store/limits.js';
import type { ThreadRecord, TurnRecord } from '../src/store/records.js';
import { migrate, MIGRATIONS } from '../src/store/schema.js';
import { EMPTY_FACETS, type ThreadQuery } from '../src/store/threads.js';
import { MAX_TRACES_PER_THREAD } from '../src/store/traces.js';

/**
 * The storage ports' contract (store/): every port, against the embedded PostgreSQL
 * (PGlite) and against a PostgreSQL server, the same tests. The server's URL is
 * `TEST_DATABASE_URL` (`.ci/run` starts one with scripts/postgres.sh); without it the
 * server's half is skipped with a warning, and fails under CI, which must run it.
 */
const serverUrl = process.env['TEST_DATABASE_URL'];
const backends: Array<[string, (schema: string) => Promise<Db>]> = [['embedded (PGlite)', () => openDb(MEMORY)]];
if (serverUrl) backends.push(['a PostgreSQL server', (schema) => openDb(serverUrl, { schema })]);

describe('the contract suite', () => {
  it('runs on a PostgreSQL server too (TEST_DATABASE_URL)', () => {
    if (!serverUrl && process.env['CI']) {
      throw new Error('TEST_DATABASE_URL is not set: CI must run the stores against a PostgreSQL server (scripts/postgres.sh start).');
    }
    if (!serverUrl) console.warn('contract suite: TEST_DATABASE_URL is not set; the stores ran on the embedded PostgreSQL only.');
    expect(backends.length).toBeGreaterThanOrEqual(1);
  });
});

let schemas = 0;

describe.each(backends)('the stores on %s', (_name, open) => {
  let db: Db;
  let stores: Stores;
  const agentId = newHexId();
  const otherAgent = newHexId();

  let schema = '';

  beforeAll(async () => {
    schema = `contract_${process.pid}_${Date.now().toString(36)}_${++schemas}`;
    db = await open(schema);
    stores = await storesOn(db);
    await stores.agents.ensure(newDemoAgent({ id: agentId, projectId: 'p'.repeat(24), name: 'Agent A' }));
    await stores.agents.ensure(newDemoAgent({ id: otherAgent, projectId: 'q'.repeat(24), name: 'Agent B' }));
    await stores.keys.ensure({ key: 'pk_a', agentId, kind: 'operator', plan: {} });
    await stores.keys.ensure({ key: 'pk_b', agentId: otherAgent, kind: 'operator', plan: {} });
  }, 120_000);
  afterAll(async () => {
    await stores?.close();
  });

  const at = (n: number) => new Date(Date.parse('2026-12-01T00:00:00Z') + n * 1000).toISOString();
  const thread = (fields: Partial<ThreadRecord> = {}): ThreadRecord => ({
    id: newHexId(),
    agentId,
    projectId: 'p'.repeat(24),
    key: 'pk_a',
    userId: 'u1',
    visitor: null,
    title: 'A thread',
    createdAt: at(0),
    updatedAt: at(0),
    versionId: 'v'.repeat(24),
    versionTag: 'v1.0',
    pinned: false,
    externalId: null,
    welcome: null,
    suggestions: null,
    lastSeq: 0,
    latestTurn: null,
    branchedFrom: null,
    channels: [],
    facets: EMPTY_FACETS,
    messageCount: 0,
    bytes: THREAD_OVERHEAD_BYTES,
    ...fields,
  });
  const message = (id: string, text: string, type: 'user' | 'agent' = 'user'): Message => ({
    id,
    text,
    sender: type === 'user' ? { type, id: 'u1' } : { type },
    cards: [{ json_data: { entity: { zeta: 1, alpha: 2 } } }],
  });
  const trace = (threadId: string, id: string, startedAt: string): Trace => ({
    interaction_id: id,
    thread_id: threadId,
    agent_id: agentId,
    version_id: 'v'.repeat(24),
    version_tag: 'v1.0',
    status: 'running',
    started_at: startedAt,
    ended_at: null,
    duration_ms: null,
    error: null,
    steps: [],
    truncated: false,
  });
  const turn = (threadId: string, fields: Partial<TurnRecord> = {}): TurnRecord => ({
    id: newHexId(),
    threadId,
    key: 'pk_a',
    userId: 'u1',
    userText: 'Hello?',
    startSeq: 0,
    status: 'running',
    result: null,
    idempotencyKey: null,
    caller: 'session-1',
    openedThread: false,
    createdAt: new Date().toISOString(),
    endedAt: null,
    ...fields,
  });

  describe('migrations', () => {
    it('are applied once: a second start applies none', async () => {
      expect(await migrate(db)).toEqual([]);
      const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    });

    it('refuse a database a newer server migrated', async () => {
      await expect(migrate(db, MIGRATIONS.slice(0, 0))).rejects.toThrow(/newer server/);
    });
  });

  describe('keys', () => {
    it('finds a key by name, and an agent’s keys; ensure leaves an existing one as it is', async () => {
      expect(await stores.keys.get('pk_a')).toMatchObject({ key: 'pk_a', agentId, kind: 'operator' });
      expect(await stores.keys.get('pk_none')).toBeUndefined();
      await stores.keys.ensure({ key: 'pk_a', agentId: otherAgent, kind: 'demo', plan: {} });
      expect(await stores.keys.get('pk_a')).toMatchObject({ agentId, kind: 'operator' });
      expect((await stores.keys.forAgent(agentId)).map((k) => k.key)).toEqual(['pk_a']);
    });

    it('keeps a minted key’s plan as written, lists minted keys least recently used first, and removes one with all it holds', async () => {
      const plans = [{ replies: [{ text: 'b', cards: [{ zeta: 1, alpha: 2 }] }] }, { paceMs: 3 }];
      const minted = [];
      for (const plan of plans) {
        const id = newHexId();
        await stores.agents.ensure(newDemoAgent({ id, projectId: 'r'.repeat(24), name: 'Minted' }));
        minted.push(await stores.keys.mint({ key: `pk_test_${id}`, agentId: id, plan }, 100));
      }
      const fresh = await storesOn(db);
      const read = await fresh.keys.get(minted[0]!.key);
      expect(JSON.stringify(read!.plan)).toBe(JSON.stringify(plans[0]));
      await stores.keys.touch(minted[0]!.key, Date.now() + 60_000);
      expect((await stores.keys.minted()).map((k) => k.key)).toEqual([minted[1]!.key, minted[0]!.key]);
      const t = await stores.threads.create(thread({ key: minted[1]!.key, agentId: minted[1]!.agentId }));
      expect(await stores.keys.remove(minted[1]!.key)).toBe(minted[1]!.agentId);
      expect(await fresh.keys.get(minted[1]!.key)).toBeUndefined();
      expect(await stores.threads.get(t.id)).toBeUndefined();
      expect(await stores.agents.remove(agentId), 'an agent a key still serves').toBe(false);
      expect(await stores.agents.remove(minted[1]!.agentId)).toBe(true);
      expect(await stores.agents.get(minted[1]!.agentId)).toBeUndefined();
      await stores.keys.remove(minted[0]!.key);
    });
  });

  describe('agents', () => {
    it('renames an agent (its live version re-published with the name), adds versions, publishes one', async () => {
      const agent = (await stores.agents.get(agentId))!;
      expect(agent.versions.map((v) => v.tag)).toEqual(['v1.0', 'v1.1-preview']);
      const renamed = (await stores.agents.rename(agentId, 'Renamed', at(5)))!;
      expect(renamed).toMatchObject({ name: 'Renamed', updatedAt: at(5) });
      expect(renamed.versions.find((v) => v.id === renamed.liveVersionId)).toMatchObject({ name: 'Renamed', publishedAt: at(5) });

      const version = {
        id: newHexId(),
        tag: 'v2',
        state: 'draft' as const,
        name: null,
        createdAt: at(6),
        publishedAt: null,
        settings: { welcome: 'Hi!' },
      };
      expect(await stores.agents.addVersion(agentId, version)).toEqual(version);
      expect(await stores.agents.addVersion(agentId, { ...version, id: newHexId() }), 'a tag taken').toBeUndefined();
      expect(await stores.agents.publish(agentId, newHexId(), at(7)), 'not its version').toBeUndefined();
      const published = (await stores.agents.publish(agentId, version.id, at(8)))!;
      expect(published.liveVersionId).toBe(version.id);
      // Another process sees what this one wrote.
      const elsewhere = (await (await storesOn(db)).agents.get(agentId))!;
      expect(elsewhere.versions.find((v) => v.id === version.id)).toMatchObject({
        state: 'published',
        name: 'Renamed',
        settings: { welcome: 'Hi!' },
      });
      expect(await stores.agents.ids()).toEqual(expect.arrayContaining([agentId, otherAgent]));
    });
  });

  describe('threads', () => {
    it('creates, reads, touches and changes a thread', async () => {
      const t = await stores.threads.create(thread({ channels: [{ channel: 'sms', phoneNumber: '+4915112345678', boundAt: at(1) }] }));
      expect(await stores.threads.get(t.id)).toEqual(t);
      const changed = await stores.threads.update(t.id, { title: null, externalId: 'ext-1', suggestions: ['a', 'b'], updatedAt: at(9) });
      expect(changed).toMatchObject({ title: null, externalId: 'ext-1', suggestions: ['a', 'b'], updatedAt: at(9), userId: 'u1' });
      expect(await stores.threads.get(t.id, { touch: Date.now() })).toMatchObject({ id: t.id });
      expect(await stores.threads.update(newHexId(), { title: 'x' })).toBeUndefined();
    });

    it('keeps messages in order, as written, at most MAX_MESSAGES_PER_THREAD (the oldest go)', async () => {
      const t = await stores.threads.create(thread());
      const first = [message('a'.repeat(24), 'one'), message('a'.repeat(24), 'two', 'agent')];
      await stores.threads.append(t.id, first, at(2));
      const read = await stores.threads.messages(t.id);
      expect(read).toEqual(first);
      expect(JSON.stringify(read[0])).toBe(JSON.stringify(first[0]));
      const many = Array.from({ length: MAX_MESSAGES_PER_THREAD }, (_, i) => message(newHexId(), `m${i}`));
      await stores.threads.append(t.id, many, at(3));
      const kept = await stores.threads.messages(t.id);
      expect(kept).toHaveLength(MAX_MESSAGES_PER_THREAD);
      expect(kept[0]!.text).toBe('m0');
      const after = (await stores.threads.get(t.id))!;
      expect(after).toMatchObject({ messageCount: MAX_MESSAGES_PER_THREAD, updatedAt: at(3) });
      expect(after.bytes).toBeGreaterThan(THREAD_OVERHEAD_BYTES);
    }, 60_000);

    it('counts what a key holds; lists its idle threads least recently used first, never one with a turn running', async () => {
      const key = `pk_usage_${Date.now()}`;
      await stores.keys.ensure({ key, agentId, kind: 'operator', plan: {} });
      const a = await stores.threads.create(thread({ key, createdAt: at(10) }));
      const b = await stores.threads.create(thread({ key, createdAt: at(11) }));
      const c = await stores.threads.create(thread({ key, createdAt: at(12) }));
      expect(await stores.threads.usage(key)).toEqual({ threads: 3, bytes: 3 * THREAD_OVERHEAD_BYTES });
      await stores.threads.get(a.id, { touch: Date.parse(at(20)) });
      const running = turn(b.id, { key });
      await stores.turns.begin({ turn: running, trace: trace(b.id, running.id, at(13)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
      expect((await stores.threads.idle(key, undefined, 10)).map((t) => t.id)).toEqual([c.id, a.id]);
      expect((await stores.threads.idle(key, c.id, 10)).map((t) => t.id)).toEqual([a.id]);
      expect(await stores.threads.forget(await stores.threads.idle(key, a.id, 10))).toEqual([c.id]);
      expect(await stores.threads.get(c.id)).toBeUndefined();
      expect((await stores.threads.usage(key)).threads).toBe(2);
    });

    it('forgets neither a thread being opened nor one a turn began on after it was listed', async () => {
      const key = `pk_race_${Date.now()}`;
      await stores.keys.ensure({ key, agentId, kind: 'operator', plan: {} });
      const old = await stores.threads.create(thread({ key, createdAt: at(10) }));
      // Made just now, no message, no turn yet: the turn that made it is on its way.
      const opening = await stores.threads.create(thread({ key, createdAt: new Date().toISOString() }));
      const listed = await stores.threads.idle(key, undefined, 10);
      expect(listed.map((t) => t.id)).toEqual([old.id]);
      const started = turn(old.id, { key });
      await stores.turns.begin({ turn: started, trace: trace(old.id, started.id, at(11)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
      await stores.turns.finish({
        id: started.id,
        threadId: old.id,
        status: 'completed',
        result: { ok: true, message: message(started.id, 'Hi', 'agent') },
        endedAt: at(12),
        messages: [],
        lastSeq: 1,
        frameBytes: 0,
        trace: { ...trace(old.id, started.id, at(11)), status: 'completed', ended_at: at(12) },
        traceBytes: 0,
        facets: { tools: [], rules: {}, params: {} },
      });
      // Its turn ended: idle again, but not as it was listed.
      expect(await stores.threads.forget(listed)).toEqual([]);
      expect(await stores.threads.get(old.id)).toBeDefined();
      expect(await stores.threads.get(opening.id)).toBeDefined();
      // Ended once: a second end (a sweep that found it lapsed, an instance that outlived its lease) adds nothing.
      const before = await stores.threads.messages(old.id);
      await stores.turns.finish({
        id: started.id,
        threadId: old.id,
        status: 'interrupted',
        result: { ok: false, message: 'interrupted', status: 503, code: 'turn.interrupted' },
        endedAt: at(13),
        messages: [message(started.id, 'again'), message(started.id, 'and again', 'agent')],
        lastSeq: 1,
        frameBytes: 0,
        trace: { ...trace(old.id, started.id, at(11)), status: 'interrupted', ended_at: at(13) },
        traceBytes: 0,
        facets: { tools: [], rules: {}, params: {} },
      });
      expect(await stores.threads.messages(old.id)).toEqual(before);
      expect((await stores.turns.get(started.id))!.status).toBe('completed');
      // A turn on a thread that is gone records nothing.
      expect(await stores.threads.forget(await stores.threads.idle(key, undefined, 10))).toEqual([old.id]);
      const late = turn(old.id, { key });
      expect(
        await stores.turns.begin({ turn: late, trace: trace(old.id, late.id, at(13)), versionId: 'v'.repeat(24), versionTag: 'v1.0' }),
      ).toBe(false);
      expect(await stores.turns.get(late.id)).toBeUndefined();
    });

    it('wakes whoever waits for a turn as frames are written for it, by this process or another on the same database', async () => {
      const t = await stores.threads.create(thread());
      const running = turn(t.id);
      await stores.turns.begin({ turn: running, trace: trace(t.id, running.id, at(1)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
      // On a server, another instance: a pool of its own, its notifications heard through LISTEN.
      const writer = db.kind === 'postgres' ? await storesOn(await open(schema)) : stores;
      try {
        const started = Date.now();
        let woken = false;
        const waiting = stores.turns.changed(running.id, new AbortController().signal, 30_000).then(() => (woken = true));
        // Written until heard: the first wait starts listening, and what is sent before that is not heard.
        for (let key = 1; !woken && key <= 100; key++) {
          writer.turns.log(running.id, [{ key, frame: { type: 'event', seq: key, data: { text: `${key} ` } } }]);
          await writer.turns.flush();
          await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 50))]);
        }
        expect(woken).toBe(true);
        expect(Date.now() - started).toBeLessThan(10_000);
      } finally {
        if (writer !== stores) await writer.close();
      }
    });

    it('trims a thread’s oldest messages down to its last two, with the traces of the turns that went', async () => {
      const t = await stores.threads.create(thread());
      const turns = [newHexId(), newHexId(), newHexId()];
      for (const [i, id] of turns.entries()) {
        await stores.threads.append(t.id, [message(id, `q${i}`), message(id, `a${i}`, 'agent')], at(i));
      }
      const before = (await stores.threads.get(t.id))!;
      const gone = await stores.threads.trim(t.id, 1);
      expect(gone).toEqual([]);
      expect((await stores.threads.messages(t.id)).map((m) => m.text)).toEqual(['a0', 'q1', 'a1', 'q2', 'a2']);
      expect(await stores.threads.trim(t.id, 1e9)).toEqual([turns[0], turns[1]]);
      expect((await stores.threads.messages(t.id)).map((m) => m.text)).toEqual(['q2', 'a2']);
      const after = (await stores.threads.get(t.id))!;
      expect(after.messageCount).toBe(2);
      expect(after.bytes).toBeLessThan(before.bytes);
    });

    it('lists threads in order with filters, both ways from a position', async () => {
      const key = `pk_list_${Date.now()}`;
      await stores.keys.ensure({ key, agentId: otherAgent, kind: 'operator', plan: {} });
      const made: ThreadRecord[] = [];
      for (let i = 0; i < 7; i++) {
        made.push(
          await stores.threads.create(
            thread({
              key,
              agentId: otherAgent,
              projectId: 'q'.repeat(24),
              userId: i % 2 ? 'odd' : 'even',
              createdAt: at(100 + i),
              updatedAt: at(200 - i),
              facets: {
                tools: i === 3 ? ['search'] : [],
                rules: i === 4 ? { r1: ['fired'] } : {},
                params: { budget: [i * 10], size: [`s${i}`] },
              },
            }),
          ),
        );
      }
      const base: ThreadQuery = { visibleAgents: [otherAgent], sortBy: 'created_at', order: 'asc', limit: 3 };
      const ids = async (q: Partial<ThreadQuery>) =>
        (await stores.threads.list({ ...base, ...q })).map((t) => made.indexOf(made.find((m) => m.id === t.id)!));
      expect(await ids({})).toEqual([0, 1, 2]);
      expect(await ids({ order: 'desc' })).toEqual([6, 5, 4]);
      expect(await ids({ sortBy: 'updated_at' })).toEqual([6, 5, 4]);
      expect(await ids({ after: { value: at(102), id: made[2]!.id } })).toEqual([3, 4, 5]);
      expect(await ids({ before: { value: at(104), id: made[4]!.id } })).toEqual([1, 2, 3]);
      expect(await ids({ order: 'desc', before: { value: at(102), id: made[2]!.id } })).toEqual([5, 4, 3]);
      expect(await ids({ userId: 'odd', limit: 10 })).toEqual([1, 3, 5]);
      expect(await ids({ created: { from: at(105) }, limit: 10 })).toEqual([5, 6]);
      expect(await ids({ created: { from: at(101), to: at(102) }, limit: 10 })).toEqual([1, 2]);
      expect(await ids({ tools: ['search', 'nothing'], limit: 10 })).toEqual([3]);
      expect(await ids({ rules: [{ code: 'r1', outcome: 'fired' }], limit: 10 })).toEqual([4]);
      expect(await ids({ rules: [{ code: 'r1', outcome: 'blocked' }], limit: 10 })).toEqual([]);
      expect(await ids({ params: [{ key: 'budget', op: '>=', value: 50 }], limit: 10 })).toEqual([5, 6]);
      expect(
        await ids({
          params: [
            { key: 'size', op: ':', value: 's2' },
            { key: 'budget', op: '<', value: 10 },
          ],
          limit: 10,
        }),
      ).toEqual([0, 2]);
      expect(await ids({ params: [{ key: 'colour', op: ':', value: null }], limit: 10 })).toEqual([]);
      expect(await ids({ projectId: 'p'.repeat(24) })).toEqual([]);
      expect(await ids({ visibleAgents: [agentId], limit: 10 })).not.toContain(0);
      expect(await stores.threads.exists(base, 'before', { value: at(100), id: made[0]!.id })).toBe(false);
      expect(await stores.threads.exists(base, 'after', { value: at(105), id: made[5]!.id })).toBe(true);
      expect(await stores.threads.exists(base, 'after', { value: at(106), id: made[6]!.id })).toBe(false);
    });
  });

  describe('traces and turns', () => {
    it('records a turn and its trace as it starts, its frames as they come (written in batches), and its end', async () => {
      const t = await stores.threads.create(thread());
      const first = turn(t.id);
      await stores.turns.begin({ turn: first, trace: trace(t.id, first.id, at(1)), versionId: 'w'.repeat(24), versionTag: 'v2' });
      expect(await stores.threads.get(t.id)).toMatchObject({ latestTurn: first.id, versionId: 'w'.repeat(24), versionTag: 'v2' });
      expect(await stores.turns.running('pk_a')).toBeGreaterThanOrEqual(1);
      expect((await stores.turns.unfinished({ all: true })).map((u) => u.id)).toContain(first.id);
      expect(await stores.traces.get(first.id)).toMatchObject({ status: 'running', thread_id: t.id });

      stores.turns.log(first.id, [{ key: 1, frame: { type: 'event', seq: 1, data: { text: 'Hel' } } }]);
      stores.turns.log(first.id, [{ key: 2, frame: { type: 'event', seq: 2, data: { text: 'lo' } } }]);
      expect((await stores.turns.frames(first.id, -1)).map((f) => f.key)).toEqual([1, 2]);
      expect((await stores.turns.frames(first.id, 1)).map((f) => f.key)).toEqual([2]);

      const reply = message(first.id, 'Hello', 'agent');
      const ended = { ...trace(t.id, first.id, at(1)), status: 'completed' as const, ended_at: at(2) };
      await stores.turns.finish({
        id: first.id,
        threadId: t.id,
        status: 'completed',
        result: { ok: true, message: reply },
        endedAt: at(2),
        messages: [message(first.id, 'Hello?'), reply],
        lastSeq: 3,
        frameBytes: 100,
        trace: ended,
        traceBytes: 50,
        facets: { tools: ['search'], rules: { r1: ['fired'] }, params: { budget: [10] } },
      });
      const record = (await stores.turns.get(first.id))!;
      expect(record).toMatchObject({ status: 'completed', endedAt: at(2), result: { ok: true } });
      expect(await stores.threads.messages(t.id)).toEqual([message(first.id, 'Hello?'), reply]);
      const after = (await stores.threads.get(t.id))!;
      expect(after).toMatchObject({ lastSeq: 3, facets: { tools: ['search'], rules: { r1: ['fired'] }, params: { budget: [10] } } });
      expect(await stores.traces.get(first.id)).toEqual(ended);
      expect((await stores.turns.unfinished({ all: true })).map((u) => u.id)).not.toContain(first.id);

      // The next turn is the latest: the first one's frames go, their bytes with them.
      const second = turn(t.id, { startSeq: 3 });
      await stores.turns.begin({ turn: second, trace: trace(t.id, second.id, at(3)), versionId: 'w'.repeat(24), versionTag: 'v2' });
      expect(await stores.turns.frames(first.id, -1)).toEqual([]);
      expect((await stores.threads.get(t.id))!.bytes).toBe(after.bytes - 100);
      expect((await stores.traces.forThread(t.id)).map((r) => r.interaction_id)).toEqual([first.id, second.id]);
    });

    it('finds the newest turn that opened a thread for a caller’s question, within a window', async () => {
      const key = `pk_opened_${Date.now()}`;
      const ask = { key, caller: 'session-9', userId: 'u9', text: 'Which tent?' };
      const started: TurnRecord[] = [];
      for (const [i, fields] of [
        { createdAt: at(1) },
        { createdAt: at(3) },
        { createdAt: at(4), openedThread: false },
        { createdAt: at(5), caller: 'someone-else' },
        { createdAt: at(6), userText: 'Another question' },
      ].entries()) {
        const t = await stores.threads.create(thread({ key }));
        const record = turn(t.id, { key, caller: 'session-9', userId: 'u9', userText: 'Which tent?', openedThread: true, ...fields });
        await stores.turns.begin({ turn: record, trace: trace(t.id, record.id, at(i)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
        started.push(record);
      }
      expect((await stores.turns.opened({ ...ask, since: at(0) }))?.id).toBe(started[1]!.id);
      expect(await stores.turns.opened({ ...ask, since: at(4) })).toBeUndefined();
      expect((await stores.turns.opened({ ...ask, caller: 'someone-else', since: at(0) }))?.id).toBe(started[3]!.id);
      expect(await stores.turns.opened({ ...ask, userId: 'u10', since: at(0) })).toBeUndefined();
    });

    it('leases a running turn to its instance: it is left behind only once the lease lapses', async () => {
      const t = await stores.threads.create(thread());
      const record = turn(t.id);
      await stores.turns.begin({ turn: record, trace: trace(t.id, record.id, at(1)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
      expect((await stores.turns.unfinished()).map((u) => u.id)).not.toContain(record.id);
      expect((await stores.turns.unfinished({ all: true })).map((u) => u.id)).toContain(record.id);
      await db.query('UPDATE turns SET lease_until = $2 WHERE id = $1', [record.id, Date.now() - 1]);
      expect((await stores.turns.unfinished()).map((u) => u.id)).toContain(record.id);
    });

    it("measures leases by the database's clock, not the instance's", async () => {
      // An instance whose clock runs an hour behind begins a turn; an instance with the
      // right clock must not take its fresh lease for lapsed (nor one an hour ahead).
      const t = await stores.threads.create(thread());
      const record = turn(t.id);
      const now = Date.now();
      const clock = vi.spyOn(Date, 'now');
      try {
        clock.mockReturnValue(now - 3_600_000);
        await stores.turns.begin({ turn: record, trace: trace(t.id, record.id, at(1)), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
        clock.mockReturnValue(now + 3_600_000);
        expect((await stores.turns.unfinished()).map((u) => u.id)).not.toContain(record.id);
      } finally {
        clock.mockRestore();
      }
      expect((await stores.turns.unfinished()).map((u) => u.id)).not.toContain(record.id);
    });

    it('keeps at most MAX_TRACES_PER_THREAD traces per thread, the oldest going first', async () => {
      const t = await stores.threads.create(thread());
      const ids = Array.from({ length: MAX_TRACES_PER_THREAD + 2 }, () => newHexId());
      await db.query(
        `INSERT INTO traces (interaction_id, thread_id, started_at, data) SELECT id, $1, to_char(n, 'FM000000'), '{}'::json FROM unnest($2::text[]) WITH ORDINALITY AS x (id, n)`,
        [t.id, ids.slice(0, -1)],
      );
      const last = turn(t.id, { id: ids.at(-1)! });
      await stores.turns.begin({ turn: last, trace: trace(t.id, last.id, '999999'), versionId: 'v'.repeat(24), versionTag: 'v1.0' });
      const kept = (await stores.traces.forThread(t.id)).map((r) => r.interaction_id);
      expect(kept).toHaveLength(MAX_TRACES_PER_THREAD);
      expect(kept).not.toContain(ids[0]);
      expect(kept).not.toContain(ids[1]);
      expect(kept.at(-1)).toBe(last.id);
    });
  });

  describe('what each key holds', () => {
    it('is counted as threads change: it is what summing its threads says, after everything above', async () => {
      const { rows: counted } = await db.query<{ key: string; threads: number; bytes: number }>(
        'SELECT key, threads, bytes FROM key_usage WHERE threads > 0 ORDER BY key',
      );
      const { rows: summed } = await db.query<{ key: string; threads: number; bytes: number }>(
        'SELECT key, count(*)::integer AS threads, sum(bytes)::double precision AS bytes FROM threads GROUP BY key ORDER BY key',
      );
      expect(counted.length).toBeGreaterThan(3);
      expect(counted).toEqual(summed);
    });
  });

  describe('idempotency keys', () => {
    it('remembers what a key names, per publishable key, within its window', async () => {
      const now = Date.now();
      const entry = { caller: 'session-1', userId: 'u1', text: 'Hi', threadId: null, turnId: 't'.repeat(24), at: now };
      await stores.idempotency.put('pk_a', 'key-1', entry);
      expect(await stores.idempotency.get('pk_a', 'key-1', now)).toEqual({ ...entry, pending: false });
      expect(await stores.idempotency.get('pk_b', 'key-1', now)).toBeUndefined();
      await stores.idempotency.put('pk_a', 'key-1', { ...entry, turnId: null });
      expect(await stores.idempotency.get('pk_a', 'key-1', now)).toMatchObject({ turnId: null });
      expect(await stores.idempotency.get('pk_a', 'key-1', now + 15 * 60_000)).toBeUndefined();
    });

    it('gives a key’s claim to one of those asking at once, until it is kept, let go or stale', async () => {
      const now = Date.now();
      const entry = { caller: '', userId: 'u1', text: 'Hi', threadId: null, turnId: null, at: now };
      const claims = await Promise.all(Array.from({ length: 8 }, () => stores.idempotency.claim('pk_a', 'claimed', entry)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await stores.idempotency.get('pk_a', 'claimed', now)).toMatchObject({ pending: true, turnId: null });
      // Kept: decided, and no longer claimable.
      await stores.idempotency.put('pk_a', 'claimed', { ...entry, turnId: 't'.repeat(24) });
      expect(await stores.idempotency.get('pk_a', 'claimed', now)).toMatchObject({ pending: false, turnId: 't'.repeat(24) });
      expect(await stores.idempotency.claim('pk_a', 'claimed', entry)).toBe(false);
      await stores.idempotency.release('pk_a', 'claimed');
      expect(await stores.idempotency.get('pk_a', 'claimed', now), 'a decided key is not let go').toBeDefined();
      // Let go: unseen again.
      expect(await stores.idempotency.claim('pk_a', 'refused', entry)).toBe(true);
      await stores.idempotency.release('pk_a', 'refused');
      expect(await stores.idempotency.get('pk_a', 'refused', now)).toBeUndefined();
      // A claim whose instance went while deciding is taken over once it is stale.
      expect(await stores.idempotency.claim('pk_a', 'stale', { ...entry, at: now - 11_000 })).toBe(true);
      expect(await stores.idempotency.claim('pk_a', 'stale', entry)).toBe(true);
      expect(await stores.idempotency.claim('pk_a', 'stale', entry)).toBe(false);
    });
  });

  describe('rates', () => {
    it('grants a burst, then one request per refill, and says how long to wait', async () => {
      const limits = { perSecond: 2, burst: 3 };
      const t0 = 1_000_000;
      const takes = [];
      for (let i = 0; i < 4; i++) takes.push(await stores.rates.take('contract:a', limits, t0));
      expect(takes).toEqual([0, 0, 0, 1]);
      expect(await stores.rates.take('contract:b', limits, t0), 'another bucket').toBe(0);
      expect(await stores.rates.take('contract:a', limits, t0 + 500)).toBe(0);
      expect(await stores.rates.take('contract:a', limits, t0 + 500)).toBe(1);
      expect(await stores.rates.take('contract:slow', { perSecond: 0.1, burst: 1 }, t0)).toBe(0);
      expect(await stores.rates.take('contract:slow', { perSecond: 0.1, burst: 1 }, t0)).toBe(10);
    });

    it('is one budget however many ask at once', async () => {
      const results = await Promise.all(
        Array.from({ length: 60 }, () => stores.rates.take('contract:together', { perSecond: 0.001, burst: 25 }, 5_000)),
      );
      expect(results.filter((wait) => wait === 0)).toHaveLength(25);
    });
  });

  describe('settings', () => {
    it('keeps the first value claimed for a name', async () => {
      expect(await stores.settings.claim('contract', { first: true })).toEqual({ first: true });
      expect(await stores.settings.claim('contract', { first: false })).toEqual({ first: true });
      expect(await stores.settings.get('contract')).toEqual({ first: true });
      expect(await stores.settings.get('nothing')).toBeUndefined();
    });
  });
});
