/**
 * Where a widget keeps what must survive a reload: the thread id, the anonymous user id and
 * the unsent draft. Keys are scoped by service and credential so two widgets for two agents
 * on one page (or one origin) never read each other's threads.
 */

import type { CachedToken, TokenCache } from '../client/token.js';
import type { BranchEvent } from './branches.js';
import type { HistoryEntry } from './history.js';

export type PersistMode = 'local' | 'session' | 'none';

export interface PersistedState {
  threadId?: string;
  userId?: string;
  draft?: string;
  history?: HistoryEntry[];
  branches?: BranchEvent[];
  /** A turn was running when this was written (the page may have gone mid-answer). */
  pending?: boolean;
  /** A reply arrived while the launcher was closed; the dot shows until it is opened. */
  unread?: boolean;
}

export interface ThreadStorage {
  read(): PersistedState;
  write(patch: Partial<PersistedState>): void;
  clear(keys: Array<keyof PersistedState>): void;
}

const PREFIX = 'agent-chat:v1:';

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

function backend(mode: PersistMode): Storage | null {
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

/** The anonymous user id: random, not derived from anything about the person. */
export function anonymousUserId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return 'anon_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Tokens from the publishable-key exchange, kept for this tab (sessionStorage) so a page
 * view does not exchange again while the token has time left (docs/protocol.md "Token
 * exchange"). Scoped like the thread; never used for host-minted tokens (token.ts).
 */
export function sessionTokenCache(scope: string): TokenCache {
  const store = backend('session');
  const key = `${PREFIX}token:${scope}`;
  return {
    read() {
      try {
        const parsed: unknown = JSON.parse(store?.getItem(key) ?? 'null');
        return parsed && typeof parsed === 'object' ? (parsed as CachedToken) : null;
      } catch {
        return null;
      }
    },
    write(token) {
      try {
        if (token) store?.setItem(key, JSON.stringify(token));
        else store?.removeItem(key);
      } catch {
        // Full or off: the next page view exchanges again.
      }
    },
  };
}
