import { newDemoAgent, TEST_PROJECT_ID } from '../agents/versions.js';
import { newHexId, randomHex } from '../http/ids.js';
import type { Stores } from '../store/index.js';
import { MINTED_KEYS_BYTES } from '../store/limits.js';
import type { KeyRecord } from '../store/records.js';
import type { FaultPlan } from './plan.js';
import type { FaultBook } from './state.js';

/** Minted keys kept at most: the least recently used go first (a key in use is never the oldest). */
const MAX_KEYS = 5000;
/** The fault plans of minted keys, in bytes of JSON, at most together: the least recently used keys go first. */
const MAX_PLAN_BYTES_KEPT = 32 * 1024 * 1024;
/** Request-log growth of one key between two checks of the keys' bytes together. */
const LOG_CHECK_BYTES = 256 * 1024;
/**
 * The keys together are summed at most this often while they hold less than three quarters
 * of their bound (a sum over every minted key's threads, after every turn of a browser
 * suite, is what this saves); closer to it, after every growth.
 */
const CHECK_EVERY_MS = 250;
/** A minted key's last use is written at most this often: the order the oldest go in, to the second. */
const TOUCH_EVERY_MS = 1000;

/**
 * Keys minted by tests (`POST /__demo/keys`), each with an agent of its own. One key stays
 * within its own budget (Budgets); the minted keys together are bounded too, as a count,
 * their plans' bytes and their bytes together (threads and request logs): past any of
 * these, the least recently used minted key goes whole, never one with a turn running and
 * never the demo key.
 */
export class MintedKeys {
  private readonly logChecked = new Map<string, number>();
  private readonly touched = new Map<string, number>();
  private checkedAt = 0;
  private lastTotal = 0;

  constructor(
    private readonly stores: Stores,
    /** Turns of a key running now: a key in use is never forgotten. */
    private readonly running: (key: string) => number,
    private readonly book: FaultBook,
    private readonly together: number = MINTED_KEYS_BYTES,
  ) {}

  async mint(plan: FaultPlan, bytes: number): Promise<KeyRecord> {
    const id = newHexId();
    await this.stores.agents.ensure(newDemoAgent({ id, projectId: TEST_PROJECT_ID, name: `Test agent ${id.slice(-6)}` }));
    const key = await this.stores.keys.mint({ key: `pk_test_${randomHex(12)}`, agentId: id, plan: plan as Record<string, unknown> }, bytes);
    await this.settle(key.key, true);
    return key;
  }

  /** A minted key was used (a request, a turn): it is the last to go, and the keys together are checked. */
  async used(key: KeyRecord): Promise<void> {
    if (key.kind !== 'minted') return;
    const now = Date.now();
    if (now - (this.touched.get(key.key) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(key.key, now);
      await this.stores.keys.touch(key.key, now);
    }
    const log = this.book.logBytes(key.key);
    if (Math.abs(log - (this.logChecked.get(key.key) ?? 0)) < LOG_CHECK_BYTES) return;
    this.logChecked.set(key.key, log);
    await this.settle(key.key, true);
  }

  /** Brings the minted keys within their bounds, `keep` kept whatever it holds (`force`: now, not when due). */
  async settle(keep: string, force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.checkedAt < CHECK_EVERY_MS && this.lastTotal < 0.75 * this.together) return;
    this.checkedAt = now;
    const minted = await this.stores.keys.minted();
    const { rows } = await this.stores.db.query<{ key: string; bytes: number }>(
      `SELECT u.key, u.bytes FROM key_usage u JOIN publishable_keys k ON k.key = u.key WHERE k.kind = 'minted'`,
    );
    const held = new Map(rows.map((r) => [r.key, r.bytes]));
    const bytesOf = (key: string) => (held.get(key) ?? 0) + this.book.logBytes(key);
    let count = minted.length;
    let plans = minted.reduce((sum, k) => sum + k.planBytes, 0);
    let bytes = minted.reduce((sum, k) => sum + bytesOf(k.key), 0);
    const over = () => count > MAX_KEYS || plans > MAX_PLAN_BYTES_KEPT || bytes > this.together;
    for (const old of minted) {
      if (!over()) break;
      if (old.key === keep || this.running(old.key) > 0) continue;
      const freed = bytesOf(old.key);
      const agentId = await this.stores.keys.remove(old.key);
      if (agentId) await this.stores.agents.remove(agentId);
      this.book.forget(old.key);
      this.logChecked.delete(old.key);
      this.touched.delete(old.key);
      count -= 1;
      plans -= old.planBytes;
      bytes -= freed;
    }
    this.lastTotal = bytes;
  }
}
