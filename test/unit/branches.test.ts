import { describe, expect, it } from 'vitest';
import { addBranch, type BranchEvent } from '../../src/state/branches.js';
import { branchIndex } from '../../src/state/branch-index.js';
import { titleFrom, touch } from '../../src/state/history.js';
import { relativeTime } from '../../src/history/history.js';

const branchPosition = (events: readonly BranchEvent[], thread: string, turn: number) => branchIndex(events).position(thread, turn);

describe('branch relations', () => {
  it('has no navigator for a thread without branches', () => {
    expect(branchPosition([], 'T', 0)).to.equal(null);
  });

  it('groups reruns of one turn, seen from any member', () => {
    let events: BranchEvent[] = [];
    events = addBranch(events, { from: 'T', turn: 1, to: 'T2' });
    events = addBranch(events, { from: 'T2', turn: 1, to: 'T3' });
    for (const [thread, index] of [
      ['T', 0],
      ['T2', 1],
      ['T3', 2],
    ] as const) {
      expect(branchPosition(events, thread, 1)).to.deep.equal({ threads: ['T', 'T2', 'T3'], index });
    }
    // Turns before the branch point are shared history: no navigator there.
    expect(branchPosition(events, 'T3', 0)).to.equal(null);
  });

  it('a branch made at a later turn shows its source at earlier turns', () => {
    let events: BranchEvent[] = [];
    events = addBranch(events, { from: 'T', turn: 1, to: 'T2' });
    events = addBranch(events, { from: 'T2', turn: 3, to: 'T4' });
    expect(branchPosition(events, 'T4', 1)).to.deep.equal({ threads: ['T', 'T2'], index: 1 });
    expect(branchPosition(events, 'T4', 3)).to.deep.equal({ threads: ['T2', 'T4'], index: 1 });
    expect(branchPosition(events, 'T', 3)).to.equal(null);
  });

  it('records each new thread once', () => {
    const once = addBranch([], { from: 'T', turn: 0, to: 'T2' });
    expect(addBranch(once, { from: 'T', turn: 0, to: 'T2' })).to.have.length(1);
  });
});

describe('thread history', () => {
  it('keeps the first title and moves active threads to the top', () => {
    let list = touch([], 'a', 'First question about shoes', new Date('2026-01-01T10:00:00Z'));
    list = touch(list, 'b', 'Another one', new Date('2026-01-01T11:00:00Z'));
    list = touch(list, 'a', 'a later message', new Date('2026-01-01T12:00:00Z'));
    expect(list.map((e) => [e.id, e.title])).to.deep.equal([
      ['a', 'First question about shoes'],
      ['b', 'Another one'],
    ]);
  });

  it('shortens long titles to one line', () => {
    const title = titleFrom(`line one\n${'x'.repeat(200)}`);
    expect(title).to.have.length(80);
    expect(title).not.to.contain('\n');
  });

  it('says when, in the UI language', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(relativeTime('2026-01-10T11:55:00Z', 'en', now)).to.equal('5 minutes ago');
    expect(relativeTime('2026-01-09T12:00:00Z', 'en', now)).to.equal('yesterday');
    expect(relativeTime('2026-01-09T12:00:00Z', 'de', now)).to.equal('gestern');
    expect(relativeTime('not a date', 'en', now)).to.equal('');
  });
});

describe('conversations in the history', () => {
  const entry = (id: string, title: string) => ({ id, title, updatedAt: '2026-01-01T00:00:00.000Z' });

  it("shows each conversation once: its branch last active, under that branch's own title", async () => {
    const { conversations, conversationOf } = await import('../../src/history/conversations.js');
    const events = [
      { from: 'r', turn: 0, to: 'b1' },
      { from: 'b1', turn: 1, to: 'b2' },
    ];
    const history = [entry('b2', 'Edited question'), entry('x', 'Other'), entry('b1', 'Regenerated'), entry('r', 'First question')];
    expect(conversations(history, events).map((e) => [e.id, e.title])).to.deep.equal([
      ['b2', 'Edited question'],
      ['x', 'Other'],
    ]);
    expect(conversationOf(events, 'b1').sort()).to.deep.equal(['b1', 'b2', 'r']);
    expect(conversationOf(events, 'x')).to.deep.equal(['x']);
    expect(conversations(history, [])).to.deep.equal(history);
  });
});
