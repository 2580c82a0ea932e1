import type { BranchEvent } from './branches.js';
import { HISTORY_LIMIT, type HistoryEntry } from './history.js';
import { PREFIX, type PersistMode, type PersistedState, type ThreadStorage, backend, createStorage, parseState } from './storage.js';
import { anonymousUserId } from './identity.js';
import { isHexId, isObject } from '../client/types.js';
import { warnOnce } from '../warn.js';

/** Drafts kept at most (one per thread): the newest written win. */
const MAX_DRAFTS = 20;
/** The longest draft kept, in characters: a pasted log survives a reload, a runaway value does not. */
const MAX_DRAFT = 100_000;
/**
 * Branch relations kept at most, the newest (src/state/branches.ts): a reader reruns a
 * handful of turns per conversation, and one who edits a question a thousand times must
 * not make every read, check and write of the state grow with it. Past the bound the
 * oldest relations go (a write adds one to what a read kept: 501 at most are stored): their
 * threads stay in the history, each a conversation of its own, and the navigator of a turn
 * counts its versions from the oldest one still related. The conversation shows as before.
 */
export const MAX_BRANCHES = 500;
/** A user id this code would store (identity.ts makes `anon_` and hex); the service gets it on every turn. */
const USER_ID = /^[\w.:@-]{1,128}$/;

const isEntry = (e: unknown): e is HistoryEntry =>
  isObject(e) &&
  isHexId(e.id) &&
  typeof e.title === 'string' &&
  e.title.length <= 200 &&
  typeof e.updatedAt === 'string' &&
  !Number.isNaN(Date.parse(e.updatedAt));
const isBranch = (e: unknown): e is BranchEvent =>
  isObject(e) && isHexId(e.from) && isHexId(e.to) && Number.isSafeInteger(e.turn) && (e.turn as number) >= 0;
const isDraft = ([thread, text]: [string, unknown]) => (!thread || isHexId(thread)) && typeof text === 'string' && text.length <= MAX_DRAFT;

/**
 * Writes `text` as the draft of `thread` (`''`: a new conversation), newest last: past
 * MAX_DRAFTS the oldest go. An empty draft is kept as such only when `empty` (a tab's own:
 * sent or cleared there), else it is left out.
 */
function keepDraft(storage: ThreadStorage, thread: string, text: string, empty: boolean): void {
  const kept = { ...storage.read().drafts };
  delete kept[thread];
  if ((text || empty) && text.length <= MAX_DRAFT) kept[thread] = text;
  const keys = Object.keys(kept);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_DRAFTS))) delete kept[old];
  storage.write({ drafts: kept, draft: undefined });
}

/**
 * The scope's state as stored, every field checked (docs/architecture.md "Checked where it
 * enters"): another version of this code, another script of the origin or a hand may have
 * written anything there. A field that is not valid is left out, a list keeps its valid
 * items, and each kind of fault is said once on the console; the rest is used as it is.
 * The running turn is checked where it is used (running-turn.ts), its age with it.
 */
export function checked(state: PersistedState): PersistedState {
  const { threadId, userId, drafts, draft, history, branches, rev, claim } = state as Record<string, unknown>;
  const valid = (ok: unknown, what: string) => ok || warnOnce(`stored ${what} that is not valid was left out`);
  const list = <T>(value: unknown, ok: (item: unknown) => item is T, what: string): T[] | undefined => {
    if (value === undefined) return;
    const items = Array.isArray(value) ? value.filter(ok) : [];
    valid(items.length === (value as unknown[] | null)?.length, what);
    return items;
  };
  // The draft of versions before drafts were kept per thread is the new conversation's.
  const texts = Object.entries(isObject(drafts) && !Array.isArray(drafts) ? { '': draft, ...drafts } : { '': draft }).filter(
    ([k, v]) => k || v !== undefined,
  );
  const kept = texts.filter(isDraft);
  valid(kept.length === texts.length && (drafts === undefined || (isObject(drafts) && !Array.isArray(drafts))), 'draft');
  return {
    threadId: valid(threadId === undefined || isHexId(threadId), 'thread id') ? (threadId as string | undefined) : undefined,
    userId: valid(userId === undefined || (typeof userId === 'string' && USER_ID.test(userId)), 'user id')
      ? (userId as string | undefined)
      : undefined,
    drafts: Object.fromEntries(kept) as Record<string, string>,
    history: list(history, isEntry, 'history entry')?.slice(0, HISTORY_LIMIT),
    branches: list(branches, isBranch, 'branch record')?.slice(-MAX_BRANCHES),
    pending: state.pending === true || undefined,
    unread: state.unread === true || undefined,
    rev: Number.isSafeInteger(rev) ? (rev as number) : undefined,
    claim: typeof claim === 'string' && claim.length <= 64 ? claim : undefined,
    // Checked where they are used: the running turn (running-turn.ts, its age with it), the ratings (src/feedback/).
    turn: state.turn,
    feedback: state.feedback,
  };
}

/**
 * What this browser keeps of one conversation scope (src/state/storage.ts): the thread in
 * use, the user id, the drafts, the history of threads, the branch relations, and the turn
 * that is running. The conversation (ChatController) decides; this keeps it.
 *
 * Every change starts from what is stored now, so tabs sharing the scope (`persist="local"`)
 * merge rather than overwrite: a history entry added in one tab stays when another touches
 * its own, and each thread keeps its own draft. `watch()` tells about the other tabs' writes.
 *
 * A draft belongs to its tab: tabs sharing the scope keep the newest draft of each thread
 * for a tab that opens later, and each tab keeps its own in sessionStorage too (it lives as
 * long as the tab, reloads included), so what another tab typed or sent since never
 * replaces this tab's draft, on its screen or on its reload.
 */
export class Saved {
  /** Threads this browser has had with this agent, newest first. */
  history: HistoryEntry[];
  /** How reruns made threads of threads (src/state/branches.ts). */
  branches: BranchEvent[];
  private readonly __storage: ThreadStorage;
  /** This tab's own drafts, `''` included (sent or cleared here), when tabs share the scope. */
  private readonly __tab: ThreadStorage | null;
  /** As read when the scope was opened: user and thread to restore. */
  readonly initial: PersistedState;

  constructor(
    private readonly __persist: PersistMode,
    private readonly __scope: string,
  ) {
    this.__storage = createStorage(__persist, __scope, checked);
    this.__tab = __persist === 'local' ? createStorage('session', `${__scope}:tab`, checked) : null;
    const saved = (this.initial = this.__storage.read());
    this.history = saved.history ?? [];
    this.branches = saved.branches ?? [];
  }

  /** The host's user id, else the stored anonymous one, else a new one (stored). */
  userId(configured: string | undefined): string {
    const stored = this.initial.userId;
    const id = configured || stored || anonymousUserId();
    if (!configured && stored !== id) this.__storage.write({ userId: id });
    return id;
  }

  /** The unsent draft of `threadId` (null: a new conversation): this tab's own, else the newest any tab wrote. */
  draftOf(threadId: string | null, state = this.__storage.read()): string {
    const key = threadId ?? '';
    const own = this.__tab?.read().drafts;
    return own && key in own ? own[key]! : (state.drafts?.[key] ?? '');
  }

  draft(threadId: string | null, text: string): void {
    keepDraft(this.__storage, threadId ?? '', text, false);
    if (this.__tab) keepDraft(this.__tab, threadId ?? '', text, true);
  }

  /**
   * Keeps one field (`undefined` or `null`: clears it): the thread in use, `pending` (a turn
   * is running: a reload loads the panel at once; the shell reads it), the running turn, a
   * takeover claim.
   */
  set<K extends 'threadId' | 'pending' | 'turn' | 'claim'>(key: K, value: PersistedState[K] | null): void {
    if (value != null) this.__storage.write({ [key]: value });
    else this.__storage.clear([key]);
  }

  /** The scope's state as stored now, checked. */
  current(): PersistedState {
    return this.__storage.read();
  }

  /**
   * Changes a list as stored now (other tabs change it too; this tab's copy if a page
   * cleared its storage, so what this tab knows is written back rather than lost) and keeps
   * it, with `also` (a rerun's branch moves to its thread). The features change the lists
   * their way: the history (src/state/history.ts `touch`, src/history/), the branches
   * (src/state/branches.ts `addBranch`, with the turns).
   */
  edit<K extends 'history' | 'branches'>(name: K, change: (list: Saved[K]) => Saved[K], also?: Partial<PersistedState>): void {
    const list = change((this.__storage.read()[name] ?? this[name]) as Saved[K]);
    Object.assign(this, { [name]: list });
    this.__storage.write({ ...also, [name]: list });
  }

  /**
   * Another tab of the origin changed the scope's state (`storage` events; only `local` is
   * shared: a frame shares its tab's sessionStorage and must not follow it either): the
   * lists are taken over, `listener` sees the rest. Returns the stop.
   */
  watch(listener: (state: PersistedState) => void): () => void {
    const store = this.__persist === 'local' ? backend('local') : null;
    if (!store) return () => undefined;
    const key = PREFIX + this.__scope;
    const onStorage = (event: StorageEvent): void => {
      // A page clearing all of its storage (key null) is not a move of the conversation:
      // this tab keeps what it shows, and writes it again with its next change.
      if (event.storageArea !== store || event.key !== key) return;
      // Events arrive late, and a tab is not told of its own writes. What happened is the
      // event's (a turn the other tab started shows here even if it has ended by now); the
      // thread in use and the lists are what is stored now: a tab that wrote since (its own
      // turn's new thread) must not follow an older move back (one that sent right after
      // another's "new conversation" was reset to an empty one, in CI).
      const now = this.__storage.read();
      this.history = now.history ?? [];
      this.branches = now.branches ?? [];
      listener({ ...checked(parseState(event.newValue)), threadId: now.threadId, history: now.history, branches: now.branches });
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }
}
