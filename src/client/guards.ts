import { isObject } from './types.js';
import { isHexId, type Card, type CardData, type Message, type Scalar, type SubEntityGroup } from './types.js';
import { warnOnce } from '../warn.js';

/**
 * What the service sends is checked and normalised here, where it enters, so the rest of
 * the widget can rely on the types without a check of its own. One odd field degrades
 * that field (a card that is not an object is dropped, a suggestion that is not text is
 * skipped), never the message: a broken or hostile service costs one card, not the reply,
 * and not the widget after every reload. No validator in the bundle: these are the shapes
 * the UI reads, and nothing more.
 */

/** A card field value: text, a finite number, a flag or null. */
export const isScalar = (value: unknown): value is Scalar =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Own scalar entries of an object: nested values and inherited keys are not card data.
 * Built with `fromEntries`, so a key named `__proto__` stays a key, not a prototype.
 */
function scalars(value: unknown): Record<string, Scalar> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, Scalar] => isScalar(entry[1])));
}

/** One card as the UI may read it, or null for what is not a card at all. */
export function readCard(value: unknown): Card | null {
  if (!isObject(value)) return null;
  const data = isObject(value.json_data) ? value.json_data : {};
  const groups: SubEntityGroup[] = Array.isArray(data.sub_entities)
    ? data.sub_entities.filter(isObject).map((group) => ({
        name: typeof group.name === 'string' ? group.name : '',
        items: Array.isArray(group.items) ? group.items.filter(isObject).map(scalars) : [],
      }))
    : [];
  const json: CardData = { entity: scalars(data.entity), sub_entities: groups };
  const card: Card = { json_data: json };
  if (typeof value.rendered_jsx === 'string') card.rendered_jsx = value.rendered_jsx;
  if (typeof value.is_recommended === 'boolean') card.is_recommended = value.is_recommended;
  if (typeof value.index === 'number' && Number.isFinite(value.index)) card.index = value.index;
  return card;
}

export function readCards(value: unknown): Card[] {
  if (value == null) return [];
  if (!Array.isArray(value)) {
    warnOnce('a reply\'s "cards" is not an array; none are shown.');
    return [];
  }
  const cards: Card[] = [];
  for (const item of value) {
    const card = readCard(item);
    if (card) cards.push(card);
    else warnOnce('a card that is not an object is left out.');
  }
  return cards;
}

/** Suggestions shown at most: a row of chips, not a page of them (the first ones win). */
export const MAX_SUGGESTIONS = 8;
/** A suggestion longer than this is not a chip's text (it is sent as the reader's message). */
const MAX_SUGGESTION = 500;

/**
 * Follow-up (or starter) suggestions: the first MAX_SUGGESTIONS that are text with
 * something to send and of a chip's length. A list of thousands costs its first few, read
 * in order, not a render of all of them.
 */
export function readSuggestions(value: unknown): string[] {
  const kept: string[] = [];
  if (Array.isArray(value))
    for (const item of value) {
      if (kept.length === MAX_SUGGESTIONS) break;
      if (typeof item === 'string' && item.trim() && item.length <= MAX_SUGGESTION) kept.push(item);
    }
  return kept;
}

/** `text` cut to at most `max` characters, never between the two halves of a surrogate pair. */
export const cutText = (text: string, max: number): string =>
  text.length > max ? text.slice(0, max - +/[\ud800-\udbff]/.test(text[max - 1]!)) : text;

/**
 * A Message (reply, transcript entry) normalised, or null when the value is not an object.
 * The reference does not say which fields are always present: absent or mistyped ones take
 * their empty value. A text longer than `max` is cut there and marked `truncated`.
 */
export function readMessage(value: unknown, max = Infinity): Message | null {
  if (!isObject(value)) return null;
  const sender = isObject(value.sender) && typeof value.sender.type === 'string' ? value.sender : null;
  const text = typeof value.text === 'string' ? value.text : '';
  const message: Message = {
    id: typeof value.id === 'string' ? value.id : '',
    text: cutText(text, max),
    sender: sender ? { type: sender.type as string, ...(typeof sender.id === 'string' ? { id: sender.id } : {}) } : { type: 'agent' },
    cards: readCards(value.cards),
    followup_suggestions: readSuggestions(value.followup_suggestions),
  };
  for (const key of ['created_at', 'welcome_message', 'url', 'image_url'] as const) {
    if (typeof value[key] === 'string') (message as unknown as Record<string, unknown>)[key] = value[key];
  }
  for (const key of ['input_tokens', 'output_tokens'] as const) {
    if (typeof value[key] === 'number' && Number.isFinite(value[key])) message[key] = value[key];
  }
  if (message.text !== text) message.truncated = true;
  return message;
}

/** A transcript: its messages (texts cut at `max`), entries that are not objects left out. Null if not a list. */
export function readMessages(value: unknown, max?: number): Message[] | null {
  if (!Array.isArray(value)) return null;
  const messages: Message[] = [];
  for (const item of value) {
    const message = readMessage(item, max);
    if (message) messages.push(message);
    else warnOnce('a transcript entry is not an object; it is left out.');
  }
  return messages;
}

/** `{thread_id, message}` of send and rerun (its text cut at `max`): the thread must be a real id. */
export function readSendResponse(value: unknown, max?: number): { thread_id: string; message: Message } | null {
  if (!isObject(value) || !isHexId(value.thread_id)) return null;
  const message = readMessage(value.message, max);
  return message && { thread_id: value.thread_id, message };
}

/**
 * Light shape check of a Message, kept for API users (`agent-chat/client`); the widget
 * itself normalises with `readMessage`.
 */
export function isMessage(value: unknown): value is Message {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.text === 'string' &&
    isObject(value.sender) &&
    typeof value.sender.type === 'string' &&
    (value.cards === undefined || Array.isArray(value.cards)) &&
    (value.followup_suggestions === undefined || Array.isArray(value.followup_suggestions))
  );
}
