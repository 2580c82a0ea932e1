import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type BranchEvent, addBranch } from '../../src/state/branches.js';
import { BranchIndex, branchIndex } from '../../src/state/branch-index.js';
import { conversationOf, conversations } from '../../src/history/conversations.js';
import { MAX_BRANCHES } from '../../src/state/saved.js';
import * as oracle from './support/branch-oracle.js';

/**
 * The branch index (src/state/branches.ts) answers what the walks over the whole list
 * answered (test/unit/support/branch-oracle.ts, the code before it), for any list, in
 * steps that grow with one chain of relations instead of with the list's length cubed.
 */

const TURNS = [0, 1, 2, 3, 4, 5];
const thread = (n: number) => `T${n}`;

/** Lists as the widget writes them: each relation makes a new thread, from one known already (or a new first thread). */
const written = fc.array(fc.record({ from: fc.nat(40), turn: fc.nat(4), fresh: fc.boolean() }), { maxLength: 40 }).map((steps) => {
  let events: BranchEvent[] = [];
  let made = 1;
  for (const { from, turn, fresh } of steps) {
    const source = fresh ? made++ : from % made;
    events = addBranch(events, { from: thread(source), turn, to: thread(made++) });
  }
  return { events, threads: Array.from({ length: made }, (_, i) => thread(i)) };
});

/** Anything a list in storage may hold: threads made twice, relations in a circle, a thread its own branch. */
const anyList = fc.array(fc.record({ from: fc.nat(7), turn: fc.nat(3), to: fc.nat(7) }), { maxLength: 30 }).map((raw) => ({
  events: raw.map((e) => ({ from: thread(e.from), turn: e.turn, to: thread(e.to) })),
  threads: Array.from({ length: 8 }, (_, i) => thread(i)),
}));

/** What the index reads of a list, by another route: the first relation to each thread, none that closes a circle. */
function readable(events: readonly BranchEvent[]): BranchEvent[] {
  const origins = new Map<string, BranchEvent>();
  const kept: BranchEvent[] = [];
  for (const event of events) {
    if (origins.has(event.to)) continue;
    let ancestor: string | undefined = event.from;
    while (ancestor !== undefined && ancestor !== event.to) ancestor = origins.get(ancestor)?.from;
    if (ancestor === event.to) continue;
    origins.set(event.to, event);
    kept.push(event);
  }
  return kept;
}

function expectSameAnswers(events: readonly BranchEvent[], threads: readonly string[], reference: readonly BranchEvent[]): void {
  const index = new BranchIndex(events);
  for (const t of threads) {
    expect(index.root(t)).toBe(oracle.rootOf(reference, t));
    expect(index.conversation(t)).toEqual(oracle.conversationOf(reference, t));
    for (const turn of TURNS) expect(index.position(t, turn)).toEqual(oracle.branchPosition(reference, t, turn));
  }
  const entries = [...threads].reverse().map((id) => ({ id, title: `title of ${id}` }));
  expect(conversations(entries, events)).toEqual(oracle.conversations(entries, reference));
}

describe('the branch index', () => {
  it('answers as the walks over the whole list did, for lists the widget writes', () => {
    fc.assert(
      fc.property(written, ({ events, threads }) => expectSameAnswers(events, threads, events)),
      { numRuns: 300 },
    );
  });

  it('reads any stored list as addBranch writes one: the first relation to a thread, none in a circle', () => {
    fc.assert(
      fc.property(anyList, ({ events, threads }) => expectSameAnswers(events, threads, readable(events))),
      { numRuns: 300 },
    );
  });

  it('is built once per list: the same list, the same index; a changed list, a new one', () => {
    const events = addBranch([], { from: 'T0', turn: 0, to: 'T1' });
    expect(branchIndex(events)).toBe(branchIndex(events));
    expect(branchIndex(addBranch(events, { from: 'T1', turn: 0, to: 'T2' }))).not.toBe(branchIndex(events));
  });
});

describe('the cost of a render with a long chain of edits', () => {
  /** One question (turn 2 of 3) edited `edits` times in a row, each edit on the newest branch. */
  const chain = (edits: number): BranchEvent[] =>
    Array.from({ length: edits }, (_, i) => ({ from: thread(i), turn: 2, to: thread(i + 1) }));

  interface Answers {
    position(t: string, turn: number): unknown;
    root(t: string): string;
    conversation(t: string): string[];
  }

  /** What a render of the newest of `edits` branches asks: each turn's navigator, the history's 50 entries and its current one. */
  function render(edits: number, api: Answers) {
    const newest = thread(edits);
    for (const turn of [0, 1, 2]) api.position(newest, turn);
    for (let i = 0; i < 50; i++) api.root(thread(edits - i));
    api.conversation(newest);
  }

  /** Reads of the list's items, counted. */
  function counted(events: readonly BranchEvent[]) {
    const reads = { count: 0 };
    const proxy = new Proxy(events as BranchEvent[], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    return { proxy, reads };
  }

  const oldWay = (events: readonly BranchEvent[]): Answers => ({
    position: (t: string, turn: number) => oracle.branchPosition(events, t, turn),
    root: (t: string) => oracle.rootOf(events, t),
    conversation: (t: string) => oracle.conversationOf(events, t),
  });

  it('grows with the chain, not with its cube, and costs nothing when the list did not change', () => {
    const cost = (edits: number) => {
      const { proxy, reads } = counted(chain(edits));
      const index = new BranchIndex(proxy);
      render(edits, index);
      const first = reads.count + index.steps;
      render(edits, index);
      return { first, again: reads.count + index.steps - first };
    };
    const [short, long] = [cost(10), cost(MAX_BRANCHES)];
    // Linear: 50 times the relations, at most 50 times the work (plus the history's 50 entries).
    expect(long.first).toBeLessThanOrEqual(50 * short.first + 200);
    expect(short.again).toBe(0);
    expect(long.again).toBe(0);
  });

  it('(the walks over the whole list it replaces grew faster than its square)', () => {
    const reads = (edits: number) => {
      const { proxy, reads } = counted(chain(edits));
      render(edits, oldWay(proxy));
      return reads.count;
    };
    // The same render at 10 and at 100 relations: more than a hundred times the reads.
    expect(reads(100)).toBeGreaterThan(100 * reads(10));
  });

  it('answers the history with the branches of one conversation', () => {
    const events = chain(20);
    expect(conversationOf(events, thread(7))).toEqual(Array.from({ length: 21 }, (_, i) => thread(i)));
  });
});
