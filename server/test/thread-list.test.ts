import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { DEMO_AGENT_ID, DEMO_PROJECT_ID, TEST_PROJECT_ID } from '../src/agents/versions.js';
import { envelope, ORIGIN, reference } from './support.js';

/**
 * `GET /management/v1/threads` (issue #26): every filter (OR within a parameter, AND across
 * them), the order, pages both ways by cursor, and a 400 with one detail per wrong
 * parameter. Seven threads of three agents in two projects, made a minute apart.
 */

const ORG = { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY };
const T0 = Date.parse('2026-01-05T10:00:00.000Z');
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

interface Page {
  results: Array<{ id: string; title: string | null; created_at: string; version_tag: string; agent_id: string }>;
  meta: { has_more: boolean; after_cursor: string | null; before_cursor: string | null };
  links: { next: string | null; prev: string | null };
}

let ref: Awaited<ReturnType<typeof reference>>;
/** Thread ids by their number (1 is the oldest). */
const ids: Record<number, string> = {};
const number = new Map<string, number>();
let agentA: string;
let agentB: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  // The organization's rate lifted: a property runs hundreds of requests.
  ref = await reference({ limits: { organization: { perSecond: 1e5, burst: 1e6 } } });
  const demo = await ref.token(DEMO_PUBLISHABLE_KEY);
  const a = await ref.mint({ replies: [{ text: 'scripted' }] });
  const b = await ref.mint();
  [agentA, agentB] = [a.agentId, b.agentId];
  const made: Array<[string, string, string]> = [
    [demo, 'Waterproof jackets under $150', 'ann'],
    [demo, 'Running shoes under $20', 'bob'],
    [demo, 'Compare your backpacks', 'ann'],
    [demo, 'What is your return policy?', 'cid'],
    [demo, 'hello', 'ann'],
    [a.token, 'anything', 'ann'],
    [b.token, 'Show me backpacks under $100', 'dan'],
  ];
  for (const [i, [token, text, user]] of made.entries()) {
    vi.setSystemTime(T0 + i * 60_000);
    ids[i + 1] = (await ref.send(token, text, undefined, user)).thread_id;
    number.set(ids[i + 1]!, i + 1);
  }
  vi.setSystemTime(T0 + 10 * 60_000);
  await ref.json(`/management/v1/threads/${ids[3]}`, { method: 'PATCH', headers: ORG, body: { external_id: 'crm-3' } });
  vi.setSystemTime(T0 + 11 * 60_000);
  await ref.json(`/management/v1/threads/${ids[1]}`, { method: 'PATCH', headers: ORG, body: { title: 'Jackets' } });
});

afterAll(() => {
  vi.useRealTimers();
});

const list = (query: string) => ref.json<Page>(`/management/v1/threads${query ? `?${query}` : ''}`, { headers: ORG });
/** The numbers of the threads a query lists, in its order. */
const listed = async (query: string) => (await list(query)).results.map((t) => number.get(t.id));
const enc = encodeURIComponent;

describe('listing threads: order', () => {
  it('lists newest first, with the reference’s list item fields', async () => {
    const page = await list('');
    expect(page.results.map((t) => number.get(t.id))).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(page.results[6]).toEqual({
      id: ids[1],
      title: 'Jackets',
      created_at: at(0),
      updated_at: at(11),
      version_tag: 'v1.0',
      agent_id: DEMO_AGENT_ID,
    });
    expect(page.meta).toEqual({ has_more: false, after_cursor: null, before_cursor: null });
    expect(page.links).toEqual({ next: null, prev: null });
  });

  it('sorts by sort_by and sort_order', async () => {
    expect(await listed('sort_order=asc')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await listed('sort_by=updated_at')).toEqual([1, 3, 7, 6, 5, 4, 2]);
    expect(await listed('sort_by=created_at&sort_order=desc')).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });
});

describe('listing threads: filters', () => {
  it('by project, agent (repeatable: OR), user and external id', async () => {
    expect(await listed(`project_id=${DEMO_PROJECT_ID}`)).toEqual([5, 4, 3, 2, 1]);
    expect(await listed(`project_id=${TEST_PROJECT_ID}`)).toEqual([7, 6]);
    expect(await listed(`agent_id=${agentA}`)).toEqual([6]);
    expect(await listed(`agent_id=${agentA}&agent_id=${agentB.toUpperCase()}`)).toEqual([7, 6]);
    expect(await listed('user_id=ann')).toEqual([6, 5, 3, 1]);
    expect(await listed('external_id=crm-3')).toEqual([3]);
    expect(await listed('user_id=nobody')).toEqual([]);
  });

  it('by creation: one timestamp is "at or after", two an inclusive range', async () => {
    expect(await listed(`created=${enc(at(4))}`)).toEqual([7, 6, 5]);
    expect(await listed(`created=${enc(at(2))}&created=${enc(at(4))}`)).toEqual([5, 4, 3]);
    // Any RFC 3339 offset.
    expect(await listed(`created=${enc('2026-01-05T11:04:00+01:00')}`)).toEqual([7, 6, 5]);
  });

  it('by the tools, rules and parameters the traces recorded', async () => {
    expect(await listed('tool=catalog.search')).toEqual([7, 2, 1]);
    expect(await listed('tool=catalog.compare&tool=policies.lookup')).toEqual([4, 3]);
    expect(await listed('rule=budget_limit')).toEqual([7, 2, 1]);
    expect(await listed('rule=budget_limit:blocked')).toEqual([2]);
    expect(await listed('rule=budget_limit:blocked&rule=budget_limit:fired')).toEqual([7, 2, 1]);
    expect(await listed('rule=budget_limit:passed')).toEqual([]);
    expect(await listed('rule=version_note:passed')).toEqual([7, 5, 4, 3, 2, 1]);
    expect(await listed('param=budget:150')).toEqual([1]);
    expect(await listed('param=budget:*')).toEqual([7, 2, 1]);
    expect(await listed('param=category:jackets&param=category:backpacks')).toEqual([7, 3, 1]);
    expect(await listed(`param=${enc('budget>50')}`)).toEqual([7, 1]);
    expect(await listed(`param=${enc('budget<100')}`)).toEqual([2]);
    expect(await listed(`param=${enc('budget<=100')}`)).toEqual([7, 2]);
    expect(await listed(`param=${enc('budget>=150')}`)).toEqual([1]);
    expect(await listed(`param=${enc('budget>150')}`)).toEqual([]);
    // A number compares only with numbers: a category is no budget.
    expect(await listed(`param=${enc('category>0')}`)).toEqual([]);
  });

  it('ANDs across parameters, ORs within one', async () => {
    expect(await listed(`tool=catalog.search&param=${enc('budget<100')}`)).toEqual([2]);
    expect(await listed('rule=budget_limit:fired&user_id=ann')).toEqual([1]);
    expect(await listed(`user_id=ann&project_id=${DEMO_PROJECT_ID}&tool=catalog.compare&tool=catalog.search`)).toEqual([3, 1]);
    expect(await listed(`agent_id=${agentB}&agent_id=${DEMO_AGENT_ID}&created=${enc(at(3))}&created=${enc(at(6))}`)).toEqual([7, 5, 4]);
  });
});

describe('listing threads: pages', () => {
  const path = (link: string) => link.slice(ORIGIN.length);

  it('walks forward by page[after] and back by page[before], each page’s cursors and links set only where there is more', async () => {
    const first = await list('page[size]=2');
    expect(first.results.map((t) => number.get(t.id))).toEqual([7, 6]);
    expect(first.meta.has_more).toBe(true);
    expect(first.meta.before_cursor).toBeNull();
    expect(first.links.prev).toBeNull();
    expect(new URL(first.links.next!).searchParams.get('page[after]')).toBe(first.meta.after_cursor);

    const pages = [first];
    while (pages.at(-1)!.links.next) pages.push(await ref.json<Page>(path(pages.at(-1)!.links.next!), { headers: ORG }));
    expect(pages.map((p) => p.results.map((t) => number.get(t.id)))).toEqual([[7, 6], [5, 4], [3, 2], [1]]);
    expect(pages.at(-1)!.meta).toMatchObject({ has_more: false, after_cursor: null });

    // Back from the last page: has_more says whether more lie before.
    const back = await list(`page[size]=2&page[before]=${enc(pages.at(-1)!.meta.before_cursor!)}`);
    expect(back.results.map((t) => number.get(t.id))).toEqual([3, 2]);
    expect(back.meta.has_more).toBe(true);
    const start = await ref.json<Page>(path((await ref.json<Page>(path(back.links.prev!), { headers: ORG })).links.prev!), {
      headers: ORG,
    });
    expect(start.results.map((t) => number.get(t.id))).toEqual([7, 6]);
    expect(start.meta).toMatchObject({ has_more: false, before_cursor: null });
  });

  it('keeps its filters and order across pages', async () => {
    const seen: Array<number | undefined> = [];
    let next: string | null = `/management/v1/threads?sort_order=asc&user_id=ann&page[size]=1`;
    while (next) {
      const page: Page = await ref.json<Page>(next, { headers: ORG });
      seen.push(...page.results.map((t) => number.get(t.id)));
      next = page.links.next && path(page.links.next);
    }
    expect(seen).toEqual([1, 3, 5, 6]);
  });

  it('takes page[size] from 1 to 100, 50 when not given', async () => {
    const many = await reference();
    const { token } = await many.mint({ limits: { perSecond: 1e5, burst: 1e6 } });
    for (let i = 0; i < 101; i++) {
      await many.json('/messaging/v1/channels/sms/threads', { token, body: { user_id: `u${i}`, phone_number: '+4915112345678' } });
    }
    const get = (query: string) => many.json<Page>(`/management/v1/threads?${query}`, { headers: ORG });
    expect((await get('')).results).toHaveLength(50);
    expect((await get('')).meta.has_more).toBe(true);
    expect((await get('page[size]=100')).results).toHaveLength(100);
    expect((await get('page[size]=1')).results).toHaveLength(1);
  });

  it('refuses a cursor that was changed, made for other filters or another order, or both directions at once', async () => {
    const first = await list('page[size]=2&user_id=ann');
    const cursor = first.meta.after_cursor!;
    const field = async (query: string) =>
      (await envelope(await ref.call(`/management/v1/threads?${query}`, { headers: ORG }), 400, 'validation_error')).details!;
    const [payload, mac] = cursor.split('.');
    const changed = `${payload!.slice(0, -2)}${payload!.at(-2) === 'A' ? 'B' : 'A'}${payload!.at(-1)}.${mac}`;
    for (const bad of [changed, `${payload}.${mac!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`, 'garbage', `${cursor}.x`]) {
      expect(await field(`page[size]=2&user_id=ann&page[after]=${enc(bad)}`)).toEqual([
        { field: 'page[after]', message: expect.any(String) },
      ]);
    }
    expect((await field(`page[size]=2&user_id=bob&page[after]=${enc(cursor)}`))[0]!.message).toMatch(/other filters/);
    expect((await field(`page[size]=2&user_id=ann&sort_order=asc&page[before]=${enc(cursor)}`))[0]!.field).toBe('page[before]');
    expect((await field(`user_id=ann&page[after]=${enc(cursor)}&page[before]=${enc(cursor)}`))[0]!.field).toBe('page[before]');
    // Its page size may change: a cursor is a place, not a page.
    expect((await list(`page[size]=5&user_id=ann&page[after]=${enc(cursor)}`)).results.map((t) => number.get(t.id))).toEqual([3, 1]);
  });
});

describe('listing threads: malformed parameters', () => {
  const details = async (query: string) =>
    (await envelope(await ref.call(`/management/v1/threads?${query}`, { headers: ORG }), 400, 'validation_error')).details!.map(
      (d) => d.field,
    );

  it('answers 400 with one detail per wrong parameter', async () => {
    const cases: Array<[string, string[]]> = [
      ['project_id=xyz', ['project_id']],
      [`agent_id=${DEMO_AGENT_ID}&agent_id=nope`, ['agent_id']],
      ['user_id=a&user_id=b', ['user_id']],
      ['user_id=', ['user_id']],
      [`external_id=${'x'.repeat(257)}`, ['external_id']],
      [`created=${enc(at(1))}&created=${enc(at(2))}&created=${enc(at(3))}`, ['created']],
      [`created=${enc(at(3))}&created=${enc(at(1))}`, ['created']],
      ['created=yesterday', ['created']],
      ['created=2026-13-01T00:00:00Z', ['created']],
      ['created=2026-01-05', ['created']],
      // Days and hours that do not exist, which Date.parse would roll into others.
      ['created=2025-02-30T00:00:00Z', ['created']],
      ['created=2024-02-30T00:00:00Z', ['created']],
      ['created=2025-01-01T24:00:00Z', ['created']],
      ['created=2025-01-01T10:60:00Z', ['created']],
      ['created=2025-01-01T10:00:00%2B24:00', ['created']],
      ['tool=bad%20tool', ['tool']],
      ['rule=budget_limit:maybe', ['rule']],
      ['rule=a:fired:b', ['rule']],
      ['rule=', ['rule']],
      ['param=budget', ['param']],
      [`param=${enc('budget>many')}`, ['param']],
      [`param=${enc(':x')}`, ['param']],
      ['page[size]=0', ['page[size]']],
      ['page[size]=101', ['page[size]']],
      ['page[size]=ten', ['page[size]']],
      ['page[size]=1.5', ['page[size]']],
      ['sort_by=title', ['sort_by']],
      ['sort_order=up', ['sort_order']],
      ['page[sizes]=2', ['page[sizes]']],
      [`tool=${Array.from({ length: 21 }, (_, i) => `t${i}`).join('&tool=')}`, ['tool']],
      ['foo=1&page[size]=0&sort_order=up', ['foo', 'page[size]', 'sort_order']],
    ];
    for (const [query, fields] of cases) expect(await details(query), query).toEqual(fields);
  });

  it('never fails otherwise, whatever the query (property)', async () => {
    const names = [
      'project_id',
      'agent_id',
      'user_id',
      'external_id',
      'created',
      'tool',
      'rule',
      'param',
      'page[size]',
      'page[after]',
      'page[before]',
      'sort_by',
      'sort_order',
      'other',
    ];
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('', '*', '0123456789abcdef01234567', at(2), 'budget>1', 'budget:*', 'x:fired', '100', '-1', 'asc', 'created_at'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const res = await ref.call(`/management/v1/threads?${query}`, { headers: ORG });
        if (res.status === 200) return;
        const error = await envelope(res, 400, 'validation_error');
        for (const d of error.details!) expect(pairs.map(([n]) => n)).toContain(d.field);
      }),
      { numRuns: 200 },
    );
  });
});
