/**
 * Where a widget keeps what must survive a reload: the thread id, the anonymous user id and
 * the unsent draft. Keys are scoped by service and credential so two widgets for two agents
 * on one page (or one origin) never read each other's threads.
 */

import type { BranchEvent } from './branches.js';
import type { HistoryEntry } from './history.js';
import type { RunningTurn } from '../continuity/running-turn.js';

export type PersistMode = 'local' | 'session' | 'none';

export interface PersistedState {
  threadId?: string;
  userId?: string;
  /** The unsent draft of each thread (`''`: a new conversation). */
  drafts?: Record<string, string>;
  /** The draft of versions before drafts were kept per thread: read as the new conversation's. */
  draft?: string;
  history?: HistoryEntry[];
  branches?: BranchEvent[];
  /** A turn was running when this was written (the page may have gone mid-answer). */
  pending?: boolean;
  /** The streamed turn that was running, to resume (src/continuity/running-turn.ts); unchecked until read. */
  turn?: RunningTurn;
  /** A reply arrived while the launcher was closed; the dot shows until it is opened. */
  unread?: boolean;
  /** Counts the writes, so a change can be told older or newer than another. */
  rev?: number;
  /** Ratings of replies by message id (src/feedback/, attribute `feedback`); unchecked until read. */
  feedback?: Record<string, unknown>;
  /** The fingerprint of the disclaimer text the reader accepted (src/disclaimer/, under its own key); unchecked until compared. */
  disclaimer?: string;
  /** Without Web Locks: the tab taking over an orphaned turn (src/continuity/mirror.ts). */
  claim?: string;
}

export interface ThreadStorage {
  read(): PersistedState;
  write(patch: Partial<PersistedState>): void;
  clear(keys: Array<keyof PersistedState>): void;
}

export const PREFIX = 'agent-chat:v1:';

/**
 * A short, stable, non-secret fingerprint: the key itself never lands in storage names (and
 * a disclaimer's text is kept as the one accepted by it).
 */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export function storageScope(baseUrl: string, credential: string): string {
  return fingerprint(`${baseUrl}\n${credential}`);
}

/** The scope of a checked configuration: its service and the kind of credential it uses. */
export function scopeOf(config: { baseUrl: string; accessToken?: string; publishableKey?: string }): string {
  return storageScope(config.baseUrl, config.accessToken ? 'token' : (config.publishableKey ?? 'provider'));
}

export function backend(mode: PersistMode): Storage | null {
  if (mode === 'none') return null;
  try {
    // Reading the property itself throws in sandboxed iframes and some privacy modes.
    return mode === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

/** A stored state: what the key holds, or nothing when it is not a JSON object (or unreadable). */
export function parseState(raw: string | null): PersistedState {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PersistedState) : {};
  } catch {
    return {};
  }
}

export const revOf = (state: PersistedState): number => (typeof state.rev === 'number' && Number.isSafeInteger(state.rev) ? state.rev : 0);

/**
 * In-memory fallback keeps the same behaviour within one page life when storage is off.
 * `check` is applied to what is read, so a write also leaves out what it left out
 * (src/state/saved.ts `checked`).
 */
export function createStorage(mode: PersistMode, scope: string, check = (state: PersistedState) => state): ThreadStorage {
  const store = backend(mode);
  const key = PREFIX + scope;
  let memory: PersistedState = {};

  const read = (): PersistedState => {
    // Checked in memory too: the bounds of what is kept hold without storage as well.
    if (!store) return check({ ...memory });
    try {
      return check(parseState(store.getItem(key)));
    } catch {
      return {};
    }
  };

  // Every write starts from what is stored now (another tab may have written since this
  // one read), so a tab never puts back older values of fields it did not change; `rev`
  // counts the writes, so a tab can tell an older change from a newer one.
  const save = (next: PersistedState): void => {
    next.rev = revOf(next) + 1;
    memory = next;
    if (!store) return;
    try {
      store.setItem(key, JSON.stringify(next));
    } catch {
      // Quota or privacy mode: the in-memory copy still serves this page.
    }
  };

  return {
    read,
    write: (patch) => save({ ...read(), ...patch }),
    clear: (keys) => {
      const next = read();
      if (keys.every((k) => next[k] === undefined)) return;
      for (const k of keys) delete next[k];
      save(next);
    },
  };
}
