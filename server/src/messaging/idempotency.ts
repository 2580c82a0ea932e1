import type { Deps } from '../deps.js';
import { ApiError, validationError } from '../http/errors.js';
import type { KeyRecord } from '../store/records.js';
import { findTurn, type FollowableTurn } from './turn.js';

/**
 * Turns by the `Idempotency-Key` of the request that started them (docs/protocol.md "A send
 * and a reload"). A request that carries a key the service has seen joins that key's turn
 * instead of running its question again; a resume (`Last-Event-ID`) for a key the service
 * has never seen is answered `409 turn.not_received`, and the key is spent: a request with it
 * that arrives later (it was still on its way) does not run either. That answer is what lets
 * a page that went before its turn's `thread` frame tell "never received" from "running".
 *
 * Kept per publishable key (one key's traffic never pushes out another's) in the stores
 * (store/idempotency.ts: for as long as a page may come back for a turn, at most 1,000 per
 * key of each kind), so a restart forgets none.
 */

/** What a key is checked against: the message it was sent with. */
export interface KeyedMessage {
  text: string;
  user_id: string;
  thread_id?: string;
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
 * The turn `key` started: the turn, null if it was spent before it arrived, undefined if the
 * service has not seen it. A key sent with another message (another text, user or thread)
 * is refused: it would join a turn that is not the caller's.
 */
export async function keyedTurn(
  deps: Deps,
  owner: KeyRecord,
  key: string,
  message: KeyedMessage,
): Promise<FollowableTurn | null | undefined> {
  const entry = await deps.stores.idempotency.get(owner.key, key, Date.now());
  if (!entry) return undefined;
  const otherThread = message.thread_id !== undefined && entry.threadId !== null && entry.threadId !== message.thread_id.toLowerCase();
  if (entry.userId !== message.user_id || entry.text !== message.text || otherThread) {
    throw new ApiError(422, 'idempotency.key_reused', 'This Idempotency-Key was sent with another message.');
  }
  if (entry.turnId === null) return null;
  return findTurn(deps, entry.turnId);
}

/**
 * Remembers what `key` names: the turn it started, or null to spend it (a resume came
 * first). The turn keeps its key too: a key pushed out of the stores is still found on
 * its thread's latest turn (`threadTurn`), as a long turn on a busy key needs.
 */
export async function keepKey(
  deps: Deps,
  owner: KeyRecord,
  key: string,
  message: KeyedMessage,
  turn: { interactionId: string; threadId: string } | null,
): Promise<void> {
  await deps.stores.idempotency.put(owner.key, key, {
    caller: '',
    userId: message.user_id,
    text: message.text,
    threadId: turn?.threadId ?? message.thread_id?.toLowerCase() ?? null,
    turnId: turn?.interactionId ?? null,
    at: Date.now(),
  });
}

/** `latest` (a thread's latest turn) if `key` started it for this message: found without the stores' keys. */
export const threadTurn = (latest: FollowableTurn | undefined, key: string, message: KeyedMessage): FollowableTurn | undefined =>
  latest?.idempotencyKey === key && latest.userText === message.text ? latest : undefined;

/** The answer for a key the service never ran, and now never will. */
export const notReceived = (): ApiError =>
  new ApiError(409, 'turn.not_received', 'No message with this Idempotency-Key reached the service; it will not run now.');
