import { type BranchEvent, type BranchPosition, addBranch, branchPosition } from './branches.js';
import { type HistoryEntry, remove as removeEntry, touch } from './history.js';
import { type PersistMode, type PersistedState, type ThreadStorage, createStorage } from './storage.js';
import { anonymousUserId } from './identity.js';
import { type RunningTurn, readRunningTurn } from '../continuity/running-turn.js';

/**
 * What this browser keeps of one conversation scope (src/state/storage.ts): the thread in
 * use, the user id, the draft, the history of threads, the branch relations, and whether a
 * turn is running. The conversation (ChatController) decides; this keeps it.
 */
export class Saved {
  /** Threads this browser has had with this agent, newest first. */
  history: HistoryEntry[];
  private branches: BranchEvent[];
  private readonly storage: ThreadStorage;
  /** As read when the scope was opened: draft, user and thread to restore. */
  readonly initial: PersistedState;

  constructor(persist: PersistMode, scope: string) {
    this.storage = createStorage(persist, scope);
    const saved = (this.initial = this.storage.read());
    this.history = Array.isArray(saved.history) ? saved.history : [];
    this.branches = Array.isArray(saved.branches) ? saved.branches : [];
  }

  /** The host's user id, else the stored anonymous one, else a new one (stored). */
  userId(configured: string | undefined): string {
    const stored = typeof this.initial.userId === 'string' ? this.initial.userId : undefined;
    const id = configured || stored || anonymousUserId();
    if (!configured && stored !== id) this.storage.write({ userId: id });
    return id;
  }

  draft(text: string): void {
    this.storage.write({ draft: text });
  }

  thread(threadId: string | null): void {
    if (threadId) this.storage.write({ threadId });
    else this.storage.clear(['threadId']);
  }

  /**
   * A turn is running: stored so that a reload (or another page of the site) loads the
   * panel and the conversation at once instead of waiting for a click (the shell reads it).
   */
  pending(running: boolean): void {
    if (running) this.storage.write({ pending: true });
    else this.storage.clear(['pending']);
  }

  /** The running turn as stored now (another page or tab may have written it), checked. */
  runningTurn(): RunningTurn | null {
    return readRunningTurn(this.storage.read().turn);
  }

  /** Keeps the running turn (null: none is running); the shell wakes the panel for it. */
  setRunningTurn(turn: RunningTurn | null): void {
    if (turn) this.storage.write({ turn });
    else this.storage.clear(['turn']);
  }

  /** The thread had activity (`at`, else now): it moves to the top of the history. */
  touch(threadId: string, title: string, at?: string): void {
    const when = at ? new Date(at) : new Date();
    this.history = touch(this.history, threadId, title, Number.isNaN(when.getTime()) ? new Date() : when);
    this.storage.write({ history: this.history });
  }

  forget(threadId: string): void {
    this.history = removeEntry(this.history, threadId);
    this.storage.write({ history: this.history });
  }

  /** A rerun of turn `turn` of thread `from` made thread `to`; `to` is now the thread in use. */
  branch(from: string, turn: number, to: string): void {
    this.branches = addBranch(this.branches, { from, turn, to });
    this.storage.write({ threadId: to, branches: this.branches });
  }

  branchAt(threadId: string, turn: number): BranchPosition | null {
    return branchPosition(this.branches, threadId, turn);
  }
}
