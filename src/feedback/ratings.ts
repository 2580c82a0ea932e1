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
  private storage: ThreadStorage | null = null;
  /** Persistence and scope the ratings were read from. */
  private scope = '';
  private ratings = new Map<string, Rating>();

  /** Follows the widget's configuration: another scope reads its own ratings. */
  open(config: { persist: PersistMode; baseUrl: string; accessToken?: string; publishableKey?: string } | null): void {
    const scope = config ? scopeOf(config) : '';
    const key = config ? `${config.persist}:${scope}` : '';
    if (key === this.scope) return;
    this.scope = key;
    this.storage = config ? createStorage(config.persist, scope) : null;
    this.ratings = this.stored();
  }

  of(id: string): Rating | null {
    return this.ratings.get(id) ?? null;
  }

  set(id: string, rating: Rating | null): void {
    // From what is stored now: another tab may have rated other replies since this one read.
    this.ratings = this.stored();
    this.ratings.delete(id);
    if (rating) this.ratings.set(id, rating);
    const kept = [...this.ratings].slice(-MAX_RATINGS);
    this.ratings = new Map(kept);
    this.storage?.write({ feedback: Object.fromEntries(kept) });
  }

  private stored(): Map<string, Rating> {
    const ratings = new Map<string, Rating>();
    const stored = this.storage?.read().feedback;
    if (stored === undefined) return ratings;
    const map = isObject(stored) && !Array.isArray(stored);
    const entries = map ? Object.entries(stored) : [];
    for (const [id, rating] of entries) if (id && id.length <= 200 && isRating(rating)) ratings.set(id, rating);
    if (!map || ratings.size < entries.length) warnOnce('stored ratings that are not valid were left out');
    return ratings;
  }
}
