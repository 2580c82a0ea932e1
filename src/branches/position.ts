import type { BranchEvent } from '../state/branches.js';

/**
 * Where a thread stands among the versions of one turn (the navigator "‹ 2 / 3 ›"), worked
 * out from the branch relations the conversation keeps (src/state/branches.ts). Part of
 * the turn controls' chunk: a page that never reruns a turn does not download it.
 */

export interface BranchPosition {
  /** Threads offering an alternative for this turn, oldest first. */
  threads: string[];
  /** Position of the viewed thread's alternative among them. */
  index: number;
}

/**
 * The thread whose content a thread shows at `turn`: a branch created at a later turn
 * shows its source's content for every earlier turn.
 */
function owner(events: readonly BranchEvent[], thread: string, turn: number): string {
  for (let current = thread, guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current);
    if (!origin || origin.turn <= turn) return current;
    current = origin.from;
  }
  return thread;
}

/** The first thread of the group of alternatives a thread belongs to at `turn`. */
function anchor(events: readonly BranchEvent[], thread: string, turn: number): string {
  let current = owner(events, thread, turn);
  for (let guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current && e.turn === turn);
    if (!origin) return current;
    current = owner(events, origin.from, turn);
  }
  return current;
}

/** The alternatives for `turn` as seen from `thread`, or null when there are none. */
export function branchPosition(events: readonly BranchEvent[], thread: string, turn: number): BranchPosition | null {
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
