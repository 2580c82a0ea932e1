import { beforeEach, describe, expect, it } from 'vitest';
import { lists } from './support/lists.js';
import { MAX_BRANCHES, Saved } from '../../src/state/saved.js';
import { readRunningTurn } from '../../src/continuity/running-turn.js';
import { PREFIX, createStorage, parseState, storageScope } from '../../src/state/storage.js';
import { MemoryStorage } from './support/globals.js';

/** What the browser keeps of a conversation (src/state/saved.ts), shared by the tabs of a scope. */
const scope = storageScope('https://agents.example', 'pk');
const T1 = '1'.repeat(24);
const T2 = '2'.repeat(24);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

/** Runs `act` as another tab of this browser does: the same localStorage, a sessionStorage of its own. */
function inAnotherTab<T>(act: () => T, tab: Storage = new MemoryStorage()): T {
  const mine = globalThis.sessionStorage;
  globalThis.sessionStorage = tab;
  try {
    return act();
  } finally {
    globalThis.sessionStorage = mine;
  }
}

describe('stored state', () => {
  it('reads only a JSON object; anything else is an empty state', () => {
    for (const raw of [null, '', 'nope', '[1]', '3', 'null']) expect(parseState(raw)).toEqual({});
    expect(parseState('{"threadId":"x"}')).toEqual({ threadId: 'x' });
  });

  it('every write starts from what is stored now and counts itself', () => {
    const a = createStorage('local', scope);
    const b = createStorage('local', scope);
    a.write({ threadId: T1 });
    b.write({ userId: 'u' });
    expect(a.read()).toMatchObject({ threadId: T1, userId: 'u', rev: 2 });
  });

  it('keeps scopes apart, and never the key itself in the storage name', () => {
    createStorage('local', scope).write({ threadId: T1 });
    expect(createStorage('local', storageScope('https://agents.example', 'pk2')).read()).toEqual({});
    expect(Object.keys(localStorage).some((k) => k.includes('pk'))).toBe(false);
    expect(localStorage.key(0)!.startsWith(PREFIX)).toBe(true);
  });

  it('persist="none" keeps state in memory only', () => {
    createStorage('none', scope).write({ threadId: T1 });
    expect(localStorage.length).toBe(0);
  });
});

describe('what a conversation keeps', () => {
  it("a user id: the host's, else the stored anonymous one, else a new one kept", () => {
    const first = new Saved('local', scope).userId(undefined);
    expect(first).toMatch(/^anon_[0-9a-f]{24}$/);
    expect(new Saved('local', scope).userId(undefined)).toBe(first);
    expect(new Saved('local', scope).userId('host-user')).toBe('host-user');
  });

  it('a draft per thread, the newest twenty', () => {
    const saved = new Saved('local', scope);
    saved.draft(T1, 'for one');
    saved.draft(null, 'for a new conversation');
    expect(saved.draftOf(T1)).toBe('for one');
    expect(saved.draftOf(null)).toBe('for a new conversation');
    saved.draft(T1, '');
    expect(saved.draftOf(T1)).toBe('');
    for (let i = 0; i < 25; i++) saved.draft(i.toString(16).padStart(24, '0'), `d${i}`);
    expect(Object.keys(saved.current().drafts!)).toHaveLength(20);
    expect(saved.draftOf((24).toString(16).padStart(24, '0'))).toBe('d24');
  });

  it('a draft belongs to its tab: its reload shows what it typed or sent, whatever another tab wrote since', () => {
    const here = new Saved('local', scope);
    here.draft(T1, 'typed here');
    here.draft(T2, 'sent here');
    here.draft(T2, '');
    const other = new MemoryStorage();
    inAnotherTab(() => {
      const there = new Saved('local', scope);
      expect(there.draftOf(T1), 'a tab that opens later takes the newest draft').toBe('typed here');
      there.draft(T1, 'typed there');
      there.draft(T2, 'typed there too');
    }, other);
    const reloaded = new Saved('local', scope);
    expect(reloaded.draftOf(T1)).toBe('typed here');
    expect(reloaded.draftOf(T2), 'sent here: empty, not the other tab’s').toBe('');
    expect(reloaded.draftOf(null)).toBe('');
    expect(inAnotherTab(() => new Saved('local', scope).draftOf(T1), other)).toBe('typed there');
    expect(
      inAnotherTab(() => new Saved('local', scope).draftOf(T2)),
      'a new tab',
    ).toBe('typed there too');
  });

  it('a tab of its own keeps no second copy: session and none persist as before', () => {
    for (const persist of ['session', 'none'] as const) {
      const saved = new Saved(persist, scope);
      saved.draft(T1, 'typed');
      expect(saved.draftOf(T1)).toBe('typed');
    }
    expect(sessionStorage.length).toBe(1);
    expect(sessionStorage.key(0)).toBe(PREFIX + scope);
  });

  it("reads an older version's single draft as the new conversation's", () => {
    createStorage('local', scope).write({ draft: 'old style' });
    expect(new Saved('local', scope).draftOf(null)).toBe('old style');
  });

  it('history: newest first, a known thread keeps its title, a removed conversation takes its branches', () => {
    const saved = new Saved('local', scope);
    lists.touch(saved, T1, 'First question');
    lists.touch(saved, T2, 'Second question');
    lists.touch(saved, T1, 'Another title');
    expect(saved.history.map((e) => [e.id, e.title])).toEqual([
      [T1, 'First question'],
      [T2, 'Second question'],
    ]);
    const branch = '3'.repeat(24);
    lists.branch(saved, T1, 0, branch);
    lists.touch(saved, branch, 'x');
    expect(saved.branches).toEqual([{ from: T1, turn: 0, to: branch }]);
    lists.forget(saved, [T1, branch]);
    expect(saved.history.map((e) => e.id)).toEqual([T2]);
  });

  it('keeps the newest branch relations past MAX_BRANCHES, with storage and without', () => {
    const hex = (n: number) => n.toString(16).padStart(24, '0');
    for (const persist of ['local', 'none'] as const) {
      const saved = new Saved(persist, scope);
      for (let i = 0; i < MAX_BRANCHES + 100; i++) lists.branch(saved, hex(i), 0, hex(i + 1));
      const kept = new Saved(persist, scope).branches;
      // What is read is the newest MAX_BRANCHES; a write adds one to them.
      expect(persist === 'local' ? kept : saved.current().branches).toHaveLength(MAX_BRANCHES);
      expect(saved.branches.length).toBeLessThanOrEqual(MAX_BRANCHES + 1);
      expect(saved.branches.at(-1)).toEqual({ from: hex(MAX_BRANCHES + 99), turn: 0, to: hex(MAX_BRANCHES + 100) });
      expect(saved.current().branches![0]!.from).toBe(hex(100));
    }
  });

  it("merges another tab's history instead of overwriting it", () => {
    const mine = new Saved('local', scope);
    const theirs = new Saved('local', scope);
    lists.touch(theirs, T2, 'theirs');
    lists.touch(mine, T1, 'mine');
    expect(new Saved('local', scope).history.map((e) => e.id)).toEqual([T1, T2]);
  });

  it('the running turn is read back only when it is well formed', () => {
    const saved = new Saved('local', scope);
    createStorage('local', scope).write({ turn: { body: { text: 3 } } as never });
    expect(readRunningTurn(saved.current().turn)).toBe(null);
  });
});
