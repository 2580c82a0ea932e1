import { type BranchEvent, type BranchPosition, addBranch, branchPosition, conversationOf, conversations } from './branches.js';
import { type HistoryEntry, remove as removeEntry, touch } from './history.js';
import { PREFIX, type PersistMode, type PersistedState, type ThreadStorage, backend, createStorage, parseState } from './storage.js';
import { anonymousUserId } from './identity.js';
import { type RunningTurn, readRunningTurn } from '../continuity/running-turn.js';

/** Drafts kept at most (one per thread): the newest written win. */
const MAX_DRAFTS = 20;

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const drafts = (state: PersistedState): Record<string, string> => {
  const kept = state.drafts && typeof state.drafts === 'object' && !Array.isArray(state.drafts) ? { ...state.drafts } : {};
  if (typeof state.draft === 'string' && !('' in kept)) kept[''] = state.draft;
  return kept;
};

/**
 * What this browser keeps of one conversation scope (src/state/storage.ts): the thread in
 * use, the user id, the drafts, the history of threads, the branch relations, and the turn
 * that is running. The conversation (ChatController) decides; this keeps it.
 *
 * Every change starts from what is stored now, so tabs sharing the scope (`persist="local"`)
 * merge rather than overwrite: a history entry added in one tab stays when another touches
 * its own, and each thread keeps its own draft. `watch()` tells about the other tabs' writes.
 */
export class Saved {
  /** Threads this browser has had with this agent, newest first. */
  history: HistoryEntry[];
  private branches: BranchEvent[];
  private readonly storage: ThreadStorage;
  /** As read when the scope was opened: user and thread to restore. */
  readonly initial: PersistedState;

  constructor(
    private readonly persist: PersistMode,
    private readonly scope: string,
  ) {
    this.storage = createStorage(persist, scope);
    const saved = (this.initial = this.storage.read());
    this.history = list(saved.history);
    this.branches = list(saved.branches);
  }

  /** The host's user id, else the stored anonymous one, else a new one (stored). */
  userId(configured: string | undefined): string {
    const stored = typeof this.initial.userId === 'string' ? this.initial.userId : undefined;
    const id = configured || stored || anonymousUserId();
    if (!configured && stored !== id) this.storage.write({ userId: id });
    return id;
  }

  /** The unsent draft of `threadId` (null: a new conversation). */
  draftOf(threadId: string | null, state = this.storage.read()): string {
    const text = drafts(state)[threadId ?? ''];
    return typeof text === 'string' ? text : '';
  }

  draft(threadId: string | null, text: string): void {
    const kept = drafts(this.storage.read());
    delete kept[threadId ?? ''];
    // Newest last: the oldest drafts go first when there are too many.
    if (text) kept[threadId ?? ''] = text;
    const keys = Object.keys(kept);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_DRAFTS))) delete kept[old];
    this.storage.write({ drafts: kept, draft: undefined });
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

  /** The scope's state as stored now. */
  current(): PersistedState {
    return this.storage.read();
  }

  /** This tab means to take over the orphaned turn (without Web Locks; the last claim wins). */
  claim(id: string): void {
    this.storage.write({ claim: id });
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
    this.history = touch(this.stored('history', this.history), threadId, title, Number.isNaN(when.getTime()) ? new Date() : when);
    this.storage.write({ history: this.history });
  }

  forget(threadId: string): void {
    this.history = removeEntry(this.stored('history', this.history), threadId);
    this.storage.write({ history: this.history });
  }

  /** The history as conversations: a conversation's branches are one entry (src/state/branches.ts). */
  get conversations(): HistoryEntry[] {
    return conversations(this.history, this.branches);
  }

  conversationOf(threadId: string): string[] {
    return conversationOf(this.branches, threadId);
  }

  /** Removes a conversation from the history: the thread and every branch of it. */
  forgetConversation(threadId: string): void {
    const members = new Set(conversationOf(this.branches, threadId));
    this.history = this.stored('history', this.history).filter((e) => !members.has(e.id));
    this.storage.write({ history: this.history });
  }

  /** A rerun of turn `turn` of thread `from` made thread `to`; `to` is now the thread in use. */
  branch(from: string, turn: number, to: string): void {
    this.branches = addBranch(this.stored('branches', this.branches), { from, turn, to });
    this.storage.write({ threadId: to, branches: this.branches });
  }

  /**
   * A list as stored now (other tabs change it too); this tab's copy if the key is gone
   * (a page cleared its storage): what this tab knows is written back rather than lost.
   */
  private stored<K extends 'history' | 'branches'>(name: K, mine: NonNullable<PersistedState[K]>): NonNullable<PersistedState[K]> {
    const value = this.storage.read()[name];
    return (Array.isArray(value) ? value : mine) as NonNullable<PersistedState[K]>;
  }

  branchAt(threadId: string, turn: number): BranchPosition | null {
    return branchPosition(this.branches, threadId, turn);
  }

  /**
   * Another tab of the origin changed the scope's state (`storage` events; only `local` is
   * shared: a frame shares its tab's sessionStorage and must not follow it either): the
   * lists are taken over, `listener` sees the rest. Returns the stop.
   */
  watch(listener: (state: PersistedState) => void): () => void {
    const store = this.persist === 'local' ? backend('local') : null;
    if (!store) return () => undefined;
    const key = PREFIX + this.scope;
    const onStorage = (event: StorageEvent): void => {
      // A page clearing all of its storage (key null) is not a move of the conversation:
      // this tab keeps what it shows, and writes it again with its next change.
      if (event.storageArea !== store || event.key !== key) return;
      // Every change is followed, in the order written (events of one key keep it).
      const state = parseState(event.newValue);
      this.history = list(state.history);
      this.branches = list(state.branches);
      listener(state);
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }
}
