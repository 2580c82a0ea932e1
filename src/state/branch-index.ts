import type { BranchEvent } from './branches.js';

/**
 * What the turn controls and the history read of the branch relations (src/state/branches.ts),
 * indexed. A chunk shared by theirs: a page that never reruns a turn nor opens its history
 * does not download it.
 */

/** Where a thread stands among the versions of one turn (the navigator "‹ 2 / 3 ›"). */
export interface BranchPosition {
  /** Threads offering an alternative for this turn, oldest first. */
  threads: string[];
  /** Position of the viewed thread's alternative among them. */
  index: number;
}

/**
 * The relations indexed for the questions the turn controls and the history ask of them on
 * every render: which relation made a thread, a thread's first thread, the threads of one
 * conversation, a thread's place among the versions of a turn. Built once per list (see
 * `branchIndex`) in one pass over it, each answer worked out once, on first asking, in
 * steps along one chain of relations: a render costs the same after 1,000 edits of one
 * question as after 10 (test/unit/branch-index.test.ts counts the steps).
 *
 * The list is read as `addBranch` writes it: the first relation that made a thread is the
 * one; a later relation to the same thread, or one that would make a thread its own
 * ancestor (neither is ever written here, another program may have), is left out.
 */
export class BranchIndex {
  /** The relation that made each thread. */
  private readonly __origins = new Map<string, BranchEvent>();
  /** The relations of each turn, oldest first. */
  private readonly __byTurn = new Map<number, BranchEvent[]>();
  /** Union-find over the threads, to refuse a relation that would close a cycle in one step. */
  private readonly __joined = new Map<string, string>();
  private __roots: Map<string, string> | null = null;
  private __members: Map<string, string[]> | null = null;
  /** Per turn: each thread's owner and anchor there, and the groups of versions by anchor. */
  private readonly __turns = new Map<number, { owner: Map<string, string>; anchor: Map<string, string>; groups: Map<string, string[]> }>();
  /** Steps taken along chains of relations (tests compare them at 10 and 1,000 relations). */
  steps = 0;

  constructor(readonly events: readonly BranchEvent[]) {
    for (const event of events) {
      if (this.__origins.has(event.to) || this.__find(event.from) === event.to) continue;
      this.__origins.set(event.to, event);
      this.__joined.set(event.to, event.from);
      const list = this.__byTurn.get(event.turn);
      if (list) list.push(event);
      else this.__byTurn.set(event.turn, [event]);
    }
  }

  /** The union-find root of `thread`, halving the path as it goes. */
  private __find(thread: string): string {
    let current = thread;
    for (let up = this.__joined.get(current); up !== undefined; up = this.__joined.get(current)) {
      const upper = this.__joined.get(up);
      if (upper !== undefined) this.__joined.set(current, upper);
      current = upper ?? up;
      this.steps++;
    }
    return current;
  }

  /** The relation that made `thread`, if one did. */
  origin(thread: string): BranchEvent | undefined {
    return this.__origins.get(thread);
  }

  /** The thread a conversation started as: follows reruns back to the first thread. */
  root(thread: string): string {
    const roots = (this.__roots ??= new Map());
    return this.__memo(roots, thread, (up) => up);
  }

  /** Every thread of the conversation `thread` belongs to: its first thread, then every branch, oldest first. */
  conversation(thread: string): string[] {
    if (!this.__members) {
      this.__members = new Map();
      for (const event of this.__origins.values()) {
        const root = this.root(event.to);
        const list = this.__members.get(root);
        if (list) list.push(event.to);
        else this.__members.set(root, [root, event.to]);
      }
    }
    const root = this.root(thread);
    return this.__members.get(root) ?? [root];
  }

  /** The alternatives for `turn` as seen from `thread`, or null when there are none. */
  position(thread: string, turn: number): BranchPosition | null {
    const at = this.__at(turn);
    const threads = at.groups.get(this.__anchor(thread, turn)) ?? [];
    if (threads.length < 2) return null;
    return { threads, index: Math.max(0, threads.indexOf(this.__owner(thread, turn))) };
  }

  /**
   * The thread whose content `thread` shows at `turn`: a branch created at a later turn
   * shows its source's content for every earlier turn.
   */
  private __owner(thread: string, turn: number): string {
    return this.__memo(this.__at(turn).owner, thread, (up, event) => (event.turn > turn ? up : null));
  }

  /** The first thread of the group of alternatives `thread` belongs to at `turn`. */
  private __anchor(thread: string, turn: number): string {
    const { anchor } = this.__at(turn);
    const owner = this.__owner(thread, turn);
    return this.__memo(anchor, owner, (up, event) => (event.turn === turn ? this.__owner(up, turn) : null));
  }

  private __at(turn: number) {
    let at = this.__turns.get(turn);
    if (!at) {
      at = { owner: new Map(), anchor: new Map(), groups: new Map() };
      this.__turns.set(turn, at);
      // Its groups: each relation of the turn joins the group of its source's anchor.
      for (const event of this.__byTurn.get(turn) ?? []) {
        const anchor = this.__anchor(event.from, turn);
        const group = at.groups.get(anchor);
        if (group) group.push(event.to);
        else at.groups.set(anchor, [anchor, event.to]);
      }
    }
    return at;
  }

  /**
   * Walks from `thread` up its relations while `next` names where to go from a thread made
   * by `event` (null: stop there), and remembers the answer for every thread on the way,
   * so no step is taken twice for one question.
   */
  private __memo(known: Map<string, string>, thread: string, next: (from: string, event: BranchEvent) => string | null): string {
    const path: string[] = [];
    let current = thread;
    let answer = known.get(current);
    while (answer === undefined) {
      path.push(current);
      const event = this.__origins.get(current);
      const up = event && next(event.from, event);
      if (!up) answer = current;
      else {
        this.steps++;
        current = up;
        answer = known.get(current);
      }
    }
    for (const step of path) known.set(step, answer);
    return answer;
  }
}

const indexes = new WeakMap<readonly BranchEvent[], BranchIndex>();

/**
 * The index of `events`, built on first asking and kept while the list is the one in use:
 * the list's owner (src/state/saved.ts) replaces it on every change and never changes it in
 * place, so the list itself tells when the index is out of date. A keystroke or a token
 * renders with the same list, hence the same index and answers already worked out.
 */
export function branchIndex(events: readonly BranchEvent[]): BranchIndex {
  let index = indexes.get(events);
  if (!index) indexes.set(events, (index = new BranchIndex(events)));
  return index;
}
