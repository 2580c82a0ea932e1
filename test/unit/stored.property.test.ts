import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { lists } from './support/lists.js';
import { Saved, checked } from '../../src/state/saved.js';
import { PREFIX, storageScope } from '../../src/state/storage.js';
import { Ratings } from '../../src/feedback/ratings.js';
import { sessionTokenCache } from '../../src/state/identity.js';
import { TokenManager } from '../../src/client/token.js';
import { isHexId } from '../../src/client/types.js';
import { readRunningTurn } from '../../src/continuity/running-turn.js';

/**
 * Every stored record is checked when read (src/state/saved.ts `checked`): arbitrary JSON
 * in any one field costs that field (or its bad items), never the others, never a throw,
 * and nothing out of bounds reaches the service or the screen.
 */
const scope = storageScope('https://agents.example', 'pk');
const key = PREFIX + scope;
const T1 = 'a'.repeat(24);
const T2 = 'b'.repeat(24);
const GOOD = {
  threadId: T1,
  userId: 'anon_0123456789abcdef01234567',
  drafts: { '': 'new', [T1]: 'one' },
  history: [{ id: T1, title: 'First', updatedAt: '2026-11-01T10:00:00.000Z' }],
  branches: [{ from: T1, turn: 0, to: T2 }],
  feedback: { m1: 'up' },
};
const FIELDS = [
  'threadId',
  'userId',
  'drafts',
  'draft',
  'history',
  'branches',
  'turn',
  'pending',
  'unread',
  'rev',
  'feedback',
  'claim',
] as const;

/** JSON of every shape, and values near the ones a field holds (ids, lists of near-entries). */
const near = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(T1, '', 'x'.repeat(200_000), -1, 1e308, null),
  fc.array(fc.oneof(fc.jsonValue(), fc.record({ id: fc.constantFrom(T1, 5, ''), title: fc.jsonValue(), updatedAt: fc.jsonValue() }))),
  fc.dictionary(fc.constantFrom('', T1, 'zz', '__proto__'), fc.jsonValue()),
);

function store(state: Record<string, unknown>): void {
  localStorage.setItem(key, JSON.stringify(state));
}

/** What any reader of the scope may rely on, whatever storage held. */
function expectValid(saved: Saved): void {
  const state = saved.current();
  if (state.threadId !== undefined) expect(isHexId(state.threadId)).toBe(true);
  for (const e of saved.history) {
    expect(isHexId(e.id)).toBe(true);
    expect(typeof e.title).toBe('string');
  }
  for (const [thread, text] of Object.entries(state.drafts ?? {})) {
    expect(thread === '' || isHexId(thread)).toBe(true);
    expect(typeof text).toBe('string');
  }
  const user = saved.userId(undefined);
  expect(user).toMatch(/^[\w.:@-]{1,128}$/);
  expect(typeof saved.draftOf(null)).toBe('string');
  expect(saved.draftOf(T1).length).toBeLessThanOrEqual(100_000);
  const turn = readRunningTurn(state.turn);
  if (turn) expect(typeof turn.body.text).toBe('string');
  // What the conversation does with its records still works.
  lists.touch(saved, T2, 'Second');
  saved.draft(T2, 'typed');
  lists.branch(saved, T2, 1, T1);
  expect(saved.history.length).toBeGreaterThan(0);
  lists.forget(saved, [T2]);
  expect(saved.draftOf(T2)).toBe('typed');
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('stored state of any shape', () => {
  for (const field of FIELDS) {
    it(`arbitrary JSON as "${field}": only that field is lost, the rest is kept and works`, () => {
      fc.assert(
        fc.property(near, (value) => {
          localStorage.clear();
          store({ ...GOOD, [field]: value });
          const saved = new Saved('local', scope);
          const state = saved.current();
          // The valid fields beside it are read as they were.
          if (field !== 'threadId') expect(state.threadId).toBe(T1);
          if (field !== 'userId') expect(saved.initial.userId).toBe(GOOD.userId);
          if (field !== 'history') expect(saved.history).toEqual(GOOD.history);
          if (field !== 'drafts' && field !== 'draft') expect(saved.draftOf(T1)).toBe('one');
          if (field !== 'feedback') expect(state.feedback).toEqual(GOOD.feedback);
          expectValid(saved);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('a whole state of arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...FIELDS, 'other'), near), (state) => {
        localStorage.clear();
        store(state);
        expectValid(new Saved('local', scope));
      }),
      { numRuns: 300 },
    );
  });

  it('a bad item of a list goes, the good ones stay', () => {
    store({ ...GOOD, history: [null, ...GOOD.history, { id: 'nope' }], branches: [{ from: 1 }, ...GOOD.branches] });
    const saved = new Saved('local', scope);
    expect(saved.history).toEqual(GOOD.history);
    expect(saved.current().branches).toEqual(GOOD.branches);
  });

  it('what was left out is not written back by the next write', () => {
    store({ ...GOOD, userId: 'x'.repeat(1_000_000), history: [null] });
    const saved = new Saved('local', scope);
    saved.draft(T1, 'next');
    const raw = localStorage.getItem(key)!;
    expect(raw.length).toBeLessThan(2000);
    expect(JSON.parse(raw)).not.toHaveProperty('userId', 'x'.repeat(1_000_000));
  });

  it('each kind of fault is said once, however often it is read', async () => {
    vi.resetModules();
    const fresh = await import('../../src/state/saved.js');
    const warn = vi.mocked(console.warn);
    warn.mockClear();
    const state = { history: [null], userId: 5, drafts: [1] };
    for (let i = 0; i < 5; i++) fresh.checked(state as never);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(checked({})).toEqual({ drafts: {} });
  });

  it('ratings of any shape: only up and down under an id are read', () => {
    fc.assert(
      fc.property(near, (value) => {
        localStorage.clear();
        store({ feedback: value });
        const ratings = new Ratings();
        ratings.open({ persist: 'local', baseUrl: 'https://agents.example', publishableKey: 'pk' });
        for (const id of ['m1', T1, '', '__proto__']) expect([null, 'up', 'down']).toContain(ratings.of(id));
        ratings.set('m2', 'down');
        expect(ratings.of('m2')).toBe('down');
      }),
      { numRuns: 200 },
    );
  });

  it('a cached token of any shape: used only if it is a header-safe value with time left', async () => {
    // The exchange, when the cache has nothing usable.
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ access_token: 'fresh', expires_in: 900 })));
    const cached = fc.record({
      value: fc.oneof(fc.string(), fc.constantFrom('x'.repeat(10_000), 'a b', 'line\nbreak', 'ok.jwt.sig'), fc.jsonValue()),
      refreshAt: fc.oneof(fc.constant(Date.now() + 3_600_000), fc.jsonValue()),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(near, cached), async (value) => {
        sessionStorage.clear();
        const cache = sessionTokenCache(scope);
        sessionStorage.setItem(`${PREFIX}token:${scope}`, JSON.stringify(value));
        const manager = new TokenManager({ baseUrl: 'https://agents.example', publishableKey: 'pk', timeoutMs: 1000, cache });
        const token = await manager.get();
        expect(token).toMatch(/^[!-~]{1,8192}$/);
      }),
      { numRuns: 200 },
    );
  });
});
