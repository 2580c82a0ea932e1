import type { BranchEvent } from '../../../src/state/branches.js';

/**
 * The branch derivations as they were before the index (src/branches/position.ts and
 * src/history/conversations.ts at 21c4ea3): a walk of the whole list per step, quadratic to
 * cubic in its length, but plainly what the navigator and the history mean. Kept as the
 * oracle of test/unit/branch-index.test.ts.
 */

function owner(events: readonly BranchEvent[], thread: string, turn: number): string {
  for (let current = thread, guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current);
    if (!origin || origin.turn <= turn) return current;
    current = origin.from;
  }
  return thread;
}

function anchor(events: readonly BranchEvent[], thread: string, turn: number): string {
  let current = owner(events, thread, turn);
  for (let guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current && e.turn === turn);
    if (!origin) return current;
    current = owner(events, origin.from, turn);
  }
  return current;
}

export function branchPosition(events: readonly BranchEvent[], thread: string, turn: number) {
  const root = anchor(events, thread, turn);
  const threads = [root];
  for (const event of events) {
    if (event.turn === turn && !threads.includes(event.to) && anchor(events, event.from, turn) === root) {
      threads.push(event.to);
    }
  }
  if (threads.length < 2) return null;
  const mine = owner(events, thread, turn);
  return { threads, index: Math.max(0, threads.indexOf(mine)) };
}

export function rootOf(events: readonly BranchEvent[], thread: string): string {
  let current = thread;
  for (let guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current);
    if (!origin) return current;
    current = origin.from;
  }
  return current;
}

/** Each conversation's branch last active, under its own title (#24: the title follows the branch shown). */
export function conversations<E extends { id: string; title: string }>(entries: readonly E[], events: readonly BranchEvent[]): E[] {
  if (!events.length) return [...entries];
  const byRoot = new Map<string, E>();
  for (const entry of entries) {
    const root = rootOf(events, entry.id);
    if (!byRoot.has(root)) byRoot.set(root, entry);
  }
  return [...byRoot.values()];
}

export function conversationOf(events: readonly BranchEvent[], thread: string): string[] {
  const root = rootOf(events, thread);
  const members = new Set([root]);
  for (const event of events) if (rootOf(events, event.to) === root) members.add(event.to);
  return [...members];
}
