/**
 * Branch relations between threads. A rerun (regenerate or edit) of turn `turn` of thread
 * `from` creates thread `to`, which shares `from`'s history before that turn and differs
 * from it there. The service does not record these relations for the widget, so they are
 * kept with the thread state and survive a reload.
 */
export interface BranchEvent {
  from: string;
  /** Index of the turn (its user message) among the thread's user messages, from 0. */
  turn: number;
  to: string;
}

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

export function addBranch(events: readonly BranchEvent[], event: BranchEvent): BranchEvent[] {
  return events.some((e) => e.to === event.to) ? [...events] : [...events, event];
}
