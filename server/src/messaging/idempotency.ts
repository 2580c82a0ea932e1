import type { Deps } from '../deps.js';
import { ApiError, validationError } from '../http/errors.js';
import type { IdempotencyEntry } from '../store/idempotency.js';
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
  return entry && decided(deps, entry, message);
}

/** What a kept key decided for `message`: its turn, or null when it was spent. */
function decided(deps: Deps, entry: IdempotencyEntry, message: KeyedMessage): Promise<FollowableTurn | undefined> | null {
  const otherThread = message.thread_id !== undefined && entry.threadId !== null && entry.threadId !== message.thread_id.toLowerCase();
  if (entry.userId !== message.user_id || entry.text !== message.text || otherThread) {
    throw new ApiError(422, 'idempotency.key_reused', 'This Idempotency-Key was sent with another message.');
  }
  return entry.turnId === null ? null : findTurn(deps, entry.turnId);
}

/** How often a request whose key another request is deciding looks whether it has decided. */
const CLAIM_POLL_MS = 25;

/**
 * `keyedTurn` for a request that will decide its key if no one has: the turn the key
 * started, null if it was spent, or undefined once this request holds the key's claim in
 * the stores. The holder must settle it: `keepKey` with what it decided, or `releaseKey`
 * when it decided nothing (it was refused). A claim another request holds, on this instance
 * or another, is waited for (at most CLAIM_MS, after which it is taken over: its instance
 * went while deciding); so two requests with one key never both start a turn.
 */
export async function claimKey(
  deps: Deps,
  owner: KeyRecord,
  key: string,
  message: KeyedMessage,
): Promise<FollowableTurn | null | undefined> {
  for (;;) {
    const entry = await deps.stores.idempotency.get(owner.key, key, Date.now());
    if (entry && !entry.pending) return decided(deps, entry, message);
    if (await deps.stores.idempotency.claim(owner.key, key, entryFor(message, null))) return undefined;
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

/** Lets go of a claim (`claimKey`) whose request decided nothing: a later one with the key decides. */
export async function releaseKey(deps: Deps, owner: KeyRecord, key: string): Promise<void> {
  await deps.stores.idempotency.release(owner.key, key);
}

const entryFor = (message: KeyedMessage, turn: { interactionId: string; threadId: string } | null): IdempotencyEntry => ({
  caller: '',
  userId: message.user_id,
  text: message.text,
  threadId: turn?.threadId ?? message.thread_id?.toLowerCase() ?? null,
  turnId: turn?.interactionId ?? null,
  at: Date.now(),
});

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
  await deps.stores.idempotency.put(owner.key, key, entryFor(message, turn));
}

/** `latest` (a thread's latest turn) if `key` started it for this message: found without the stores' keys. */
export const threadTurn = (latest: FollowableTurn | undefined, key: string, message: KeyedMessage): FollowableTurn | undefined =>
  latest?.idempotencyKey === key && latest.userText === message.text ? latest : undefined;

/** The answer for a key the service never ran, and now never will. */
export const notReceived = (): ApiError =>
  new ApiError(409, 'turn.not_received', 'No message with this Idempotency-Key reached the service; it will not run now.');
