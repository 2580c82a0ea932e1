/**
 * What one publishable key may hold and ask for (README.md "Limits"). Every key
 * has its own budget: threads, bytes and requests of one key never push out or slow down
 * another key's. Past its thread or byte budget a key forgets its own least recently used
 * threads (they answer 404, as deleted ones would); past its request rate it is answered
 * 429 with `Retry-After`; past its running turns a new turn is 429 too.
 */
export interface KeyLimits {
  /** Threads kept; past it the key's least recently used idle thread is forgotten. */
  threads: number;
  /**
   * Bytes its threads hold together, as counted (`sizeOf`): messages, traces and the frames
   * of each thread's latest turn, running turns included as they grow. Past it the key's
   * least recently used idle threads are forgotten, then the oldest messages of the busiest.
   */
  bytes: number;
  /** Requests per second, sustained (token exchange, messaging, socket turns, management). */
  perSecond: number;
  /** Requests at once after a quiet while: the bucket's size. */
  burst: number;
  /** Turns running at once; a turn beyond them is refused (429) until one ends. */
  runningTurns: number;
  /** WebSocket sessions open at once (each instance's); one beyond them is refused at `auth`. */
  sessions: number;
}

/** WebSocket sessions one token may hold open at once: a page holds one, a few tabs a few. */
export const SESSIONS_PER_TOKEN = 8;

const MiB = 1024 * 1024;

/**
 * The public demo key is every visitor's: more threads than a test key, a smaller share of
 * memory per thread, and a request rate for many visitors at once (about twenty turns a
 * second between them), not for one. A flood through it forgets only its own threads.
 */
export const DEMO_KEY_LIMITS: KeyLimits = { threads: 2000, bytes: 32 * MiB, perSecond: 50, burst: 300, runningTurns: 32, sessions: 300 };

/**
 * A key minted for a test (`POST /__demo/keys`): room for hostile megabyte replies and a
 * browser suite's bursts of requests; its plan's `limits` may change any of these.
 */
export const MINTED_KEY_LIMITS: KeyLimits = {
  threads: 500,
  bytes: 16 * MiB,
  perSecond: 500,
  burst: 5000,
  runningTurns: 32,
  sessions: 100,
};

/**
 * A key its operator defined for a real agent: its visitors' conversations are what the
 * server is for, so it keeps far more than the public demo key, on disk, within a bound all
 * the same (a flood through a public key must not fill the disk).
 */
export const OPERATOR_KEY_LIMITS: KeyLimits = {
  threads: 200_000,
  bytes: 2048 * MiB,
  perSecond: 100,
  burst: 500,
  runningTurns: 64,
  sessions: 5000,
};

/**
 * All minted keys together hold at most this many bytes. One key stays within its own
 * budget and forgets its own threads; only when the keys together pass this (many keys
 * holding data: the key-count bound, counted in bytes) does the least recently used minted
 * key go whole, as the oldest keys go past the key count. Never the demo key.
 */
export const MINTED_KEYS_BYTES = 64 * MiB;

/** The organization API key's rate (management with it; its logins): a console's, not a flood's. */
export const ORGANIZATION_RATE = { perSecond: 50, burst: 500 };

/** A reply's text at most; a model that writes more fails the turn (`agents.reply_too_large`). */
export const MAX_REPLY_CHARS = 2 * MiB;

/** Token frames of one turn at most; past it the rest of the text goes in its last frame. */
export const MAX_TURN_FRAMES = 20_000;

/** Messages one thread keeps; the oldest go first (a rerun branch copies at most these). */
export const MAX_MESSAGES_PER_THREAD = 2000;

/**
 * What a thread's record, its maps and a frame's objects cost beyond their text, in the
 * counted bytes. Measured under a flood (README.md "Limits"): with these the
 * counted bytes stay above the heap they stand for.
 */
export const THREAD_OVERHEAD_BYTES = 2048;
export const FRAME_OVERHEAD_BYTES = 192;
const VALUE_OVERHEAD_BYTES = 256;

/**
 * The counted size of a value kept: twice its JSON (a string's characters may take two
 * bytes each in the heap) plus the objects around it. JSON is what the value costs to keep,
 * give or take the engine's object headers, which the overhead covers.
 */
export function sizeOf(value: unknown): number {
  return 2 * (JSON.stringify(value)?.length ?? 0) + VALUE_OVERHEAD_BYTES;
}

/**
 * A token bucket: `burst` requests at once, refilled at `perSecond`. Time comes from the
 * caller (a key's clock may run ahead of the server's: `KeyRecord.clockOffsetMs`).
 */
export class RateBucket {
  private tokens: number;
  private at: number | undefined;

  constructor(private readonly limits: Pick<KeyLimits, 'perSecond' | 'burst'>) {
    this.tokens = limits.burst;
  }

  /** Takes one request's token: 0 when granted, else the whole seconds until one is there. */
  take(now: number): number {
    const { perSecond, burst } = this.limits;
    if (this.at !== undefined) this.tokens = Math.min(burst, this.tokens + (Math.max(0, now - this.at) / 1000) * perSecond);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / perSecond));
  }
}
