import { ApiError, validationError } from '../http/errors.js';
import type { KeyRecord } from '../store/store.js';
import type { Turn } from './turn.js';

/**
 * Turns by the `Idempotency-Key` of the request that started them (docs/protocol.md "A send
 * and a reload"). A request that carries a key the service has seen joins that key's turn
 * instead of running its question again; a resume (`Last-Event-ID`) for a key the service
 * has never seen is answered `409 turn.not_received`, and the key is spent: a request with it
 * that arrives later (it was still on its way) does not run either. That answer is what lets
 * a page that went before its turn's `thread` frame tell "never received" from "running".
 *
 * Kept per publishable key (one key's traffic never pushes out another's), for as long as a
 * page may come back for a turn (a stored turn older than 15 minutes is not resumed), and at
 * most MAX_KEYS per publishable key: past it the oldest are forgotten first.
 */
const WINDOW_MS = 15 * 60_000;
const MAX_KEYS = 1_000;

interface Entry {
  /** The turn the key started; null: a resume asked for it before it arrived, so it never runs. */
  turn: Turn | null;
  /** Whose question it was: a key names one message of one user, and reveals nothing to another. */
  userId: string;
  text: string;
  at: number;
}

/** What a key is checked against: the message it was sent with. */
export interface KeyedMessage {
  text: string;
  user_id: string;
}

const registries = new WeakMap<KeyRecord, Map<string, Entry>>();

/** The keys of `owner` still in their window, oldest first (a Map keeps insertion order). */
function entries(owner: KeyRecord, now = Date.now()): Map<string, Entry> {
  let map = registries.get(owner);
  if (!map) registries.set(owner, (map = new Map()));
  for (const [key, entry] of map) {
    if (now - entry.at < WINDOW_MS) break;
    map.delete(key);
  }
  return map;
}

/**
 * The request's `Idempotency-Key` (undefined without one): an sf-string as the IETF draft
 * writes it (`"…"`), or the bare token most services take; 1 to 255 visible ASCII characters.
 */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim().replace(/^"(.*)"$/, '$1');
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw validationError([{ message: 'Must be 1 to 255 visible ASCII characters.', field: 'Idempotency-Key' }]);
  }
  return value;
}

/**
 * The turn `key` started: a Turn, null if it was spent before it arrived, undefined if the
 * service has not seen it. A key sent with another message (or by another user) is refused:
 * it would join a turn that is not the caller's.
 */
export function keyedTurn(owner: KeyRecord, key: string, message: KeyedMessage): Turn | null | undefined {
  const entry = entries(owner).get(key);
  if (!entry) return undefined;
  if (entry.userId !== message.user_id || entry.text !== message.text) {
    throw new ApiError(422, 'idempotency.key_reused', 'This Idempotency-Key was sent with another message.');
  }
  return entry.turn;
}

/**
 * Remembers what `key` names: the turn it started, or null to spend it (a resume came
 * first). The turn keeps its key too: a key pushed out of the registry is still found on
 * its thread's latest turn (`threadTurn`), as a long turn on a busy key needs.
 */
export function keepKey(owner: KeyRecord, key: string, message: KeyedMessage, turn: Turn | null): void {
  if (turn) turn.idempotencyKey = key;
  const map = entries(owner);
  map.set(key, { turn, userId: message.user_id, text: message.text, at: Date.now() });
  for (const oldest of map.keys()) {
    if (map.size <= MAX_KEYS) break;
    map.delete(oldest);
  }
}

/** `latest` (a thread's latest turn) if `key` started it for this message: found without the registry. */
export const threadTurn = (latest: Turn | undefined, key: string, message: KeyedMessage): Turn | undefined =>
  latest?.idempotencyKey === key && latest.userText === message.text ? latest : undefined;

/** The answer for a key the service never ran, and now never will. */
export const notReceived = (): ApiError =>
  new ApiError(409, 'turn.not_received', 'No message with this Idempotency-Key reached the service; it will not run now.');
