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
  draft?: string;
  history?: HistoryEntry[];
  branches?: BranchEvent[];
  /** A turn was running when this was written (the page may have gone mid-answer). */
  pending?: boolean;
  /** The streamed turn that was running, to resume (src/continuity/running-turn.ts); unchecked until read. */
  turn?: RunningTurn;
  /** A reply arrived while the launcher was closed; the dot shows until it is opened. */
  unread?: boolean;
}

export interface ThreadStorage {
  read(): PersistedState;
  write(patch: Partial<PersistedState>): void;
  clear(keys: Array<keyof PersistedState>): void;
}

export const PREFIX = 'agent-chat:v1:';

/** A short, stable, non-secret fingerprint: the key itself never lands in storage names. */
function fingerprint(text: string): string {
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

/** In-memory fallback keeps the same behaviour within one page life when storage is off. */
export function createStorage(mode: PersistMode, scope: string): ThreadStorage {
  const store = backend(mode);
  const key = PREFIX + scope;
  let memory: PersistedState = {};

  const read = (): PersistedState => {
    if (!store) return { ...memory };
    try {
      const raw = store.getItem(key);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      return parsed && typeof parsed === 'object' ? (parsed as PersistedState) : {};
    } catch {
      return {};
    }
  };

  const save = (next: PersistedState): void => {
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
      for (const k of keys) delete next[k];
      save(next);
    },
  };
}
