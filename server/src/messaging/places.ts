import { ApiError } from '../http/errors.js';
import { SESSIONS_PER_TOKEN } from '../store/limits.js';
import type { KeyRecord } from '../store/records.js';

/**
 * The WebSocket sessions open in this process, by key and by token: each key may hold its
 * `limits.sessions`, each token SESSIONS_PER_TOKEN (a page holds one). A session past either
 * is refused at `auth` (429, close 4429) instead of being one more socket kept alive.
 */
export class SessionPlaces {
  private readonly byKey = new Map<string, number>();
  private readonly byToken = new Map<string, number>();

  /** A place for a new session: the function that gives it back (once), or the refusal. */
  take(key: KeyRecord, token: string): (() => void) | ApiError {
    const forKey = this.byKey.get(key.key) ?? 0;
    const forToken = this.byToken.get(token) ?? 0;
    if (forKey >= key.limits.sessions || forToken >= SESSIONS_PER_TOKEN) {
      const whose = forKey >= key.limits.sessions ? 'this key' : 'this token';
      return new ApiError(429, 'session.too_many', `Too many sessions are open for ${whose}; close one first.`, null, {
        'Retry-After': '5',
      });
    }
    this.byKey.set(key.key, forKey + 1);
    this.byToken.set(token, forToken + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      drop(this.byKey, key.key);
      drop(this.byToken, token);
    };
  }
}

function drop(counts: Map<string, number>, name: string): void {
  const left = (counts.get(name) ?? 1) - 1;
  if (left > 0) counts.set(name, left);
  else counts.delete(name);
}
