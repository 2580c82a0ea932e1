import { isObject } from '../client/types.js';
import { warnOnce } from '../warn.js';
import { createStorage, scopeOf, type PersistMode, type ThreadStorage } from '../state/storage.js';

export type Rating = 'up' | 'down';

/** Ratings kept at most: the newest win (a reader rates a handful per conversation). */
const MAX_RATINGS = 500;

const isRating = (value: unknown): value is Rating => value === 'up' || value === 'down';

/**
 * The reader's ratings by reply id, kept with the conversation's state (same storage key,
 * same `persist` mode) so a reload shows them. What storage holds is checked as it is read:
 * anything but `up`/`down` under a short id is dropped.
 */
export class Ratings {
  private __storage: ThreadStorage | null = null;
  /** Persistence and scope the ratings were read from. */
  private __scope = '';
  private __ratings = new Map<string, Rating>();

  /** Follows the widget's configuration: another scope reads its own ratings. */
  open(config: { persist: PersistMode; baseUrl: string; accessToken?: string; publishableKey?: string } | null): void {
    const scope = config ? scopeOf(config) : '';
    const key = config ? `${config.persist}:${scope}` : '';
    if (key === this.__scope) return;
    this.__scope = key;
    this.__storage = config ? createStorage(config.persist, scope) : null;
    this.__ratings = this.__stored();
  }

  of(id: string): Rating | null {
    return this.__ratings.get(id) ?? null;
  }

  set(id: string, rating: Rating | null): void {
    // From what is stored now: another tab may have rated other replies since this one read.
    this.__ratings = this.__stored();
    this.__ratings.delete(id);
    if (rating) this.__ratings.set(id, rating);
    const kept = [...this.__ratings].slice(-MAX_RATINGS);
    this.__ratings = new Map(kept);
    this.__storage?.write({ feedback: Object.fromEntries(kept) });
  }

  private __stored(): Map<string, Rating> {
    const ratings = new Map<string, Rating>();
    const stored = this.__storage?.read().feedback;
    if (stored === undefined) return ratings;
    const map = isObject(stored) && !Array.isArray(stored);
    const entries = map ? Object.entries(stored) : [];
    for (const [id, rating] of entries) if (id && id.length <= 200 && isRating(rating)) ratings.set(id, rating);
    if (!map || ratings.size < entries.length) warnOnce('stored ratings that are not valid were left out');
    return ratings;
  }
}
