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

/** The thread a conversation started as: follows reruns back to the first thread. */
export function rootOf(events: readonly BranchEvent[], thread: string): string {
  let current = thread;
  for (let guard = 0; guard < 1000; guard++) {
    const origin = events.find((e) => e.to === current);
    if (!origin) return current;
    current = origin.from;
  }
  return current;
}

/**
 * The history as a list of conversations: the branches of one conversation (regenerated or
 * edited turns) are one entry, the branch last active, under the conversation's first title.
 * The branch navigator reaches the others. `entries` are newest first.
 */
export function conversations<E extends { id: string; title: string }>(entries: readonly E[], events: readonly BranchEvent[]): E[] {
  if (!events.length) return [...entries];
  const byRoot = new Map<string, E>();
  for (const entry of entries) {
    const root = rootOf(events, entry.id);
    if (byRoot.has(root)) continue;
    const first = entries.find((e) => e.id === root);
    byRoot.set(root, first && first !== entry ? { ...entry, title: first.title } : entry);
  }
  return [...byRoot.values()];
}

/** Every thread of the conversation `thread` belongs to (its root and all branches). */
export function conversationOf(events: readonly BranchEvent[], thread: string): string[] {
  const root = rootOf(events, thread);
  const members = new Set([root]);
  for (const event of events) if (rootOf(events, event.to) === root) members.add(event.to);
  return [...members];
}
