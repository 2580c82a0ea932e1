import type { Card, Message } from '../client/types.js';
import { safeImageUrl } from '../security/url.js';

export type Role = 'user' | 'agent';

/**
 * One entry of the visible conversation. `key` is local and unique; `id` is the service's
 * id, which a user message and the agent reply of one turn share, so it cannot be a key.
 * Never changed in place: a transition of the conversation's store (store.ts) replaces it.
 */
export interface ChatMessage {
  readonly key: string;
  readonly id?: string;
  readonly role: Role;
  readonly text: string;
  readonly cards: readonly Card[];
  readonly suggestions: readonly string[];
  readonly createdAt?: string;
  readonly imageUrl?: string;
  /**
   * `streaming` while tokens arrive; `stopped` when the reader pressed stop and
   * `interrupted` when the stream failed: both keep the partial text. `queued`: a user
   * message written offline, sent when the connection returns.
   */
  readonly state: 'done' | 'streaming' | 'stopped' | 'interrupted' | 'queued';
  /** A reply longer than `max-reply-length`, cut there (the client's `Message.truncated`): a note says so. */
  readonly truncated?: boolean;
  /**
   * A question from the service's transcript: who sent it (`sender.id`, '' when unsaid).
   * Absent on a question written in this browser, which is the reader's own.
   */
  readonly senderId?: string;
}

let counter = 0;
export function localKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export function roleOf(message: Message): Role {
  return message.sender?.type === 'user' ? 'user' : 'agent';
}

export function fromWire(message: Message, position: number): ChatMessage {
  const role = roleOf(message);
  return {
    key: `${role}:${message.id}:${position}`,
    id: message.id,
    role,
    text: message.text ?? '',
    cards: Array.isArray(message.cards) ? message.cards : [],
    suggestions: Array.isArray(message.followup_suggestions) ? message.followup_suggestions : [],
    createdAt: message.created_at,
    imageUrl: safeImageUrl(message.image_url) ?? undefined,
    state: 'done',
    truncated: message.truncated,
    ...(role === 'user' && { senderId: message.sender.id ?? '' }),
  };
}

/**
 * A transcript as the service returns it. Entries that only carry the welcome message are
 * the agent's greeting, which the widget shows separately.
 */
export function fromTranscript(messages: Message[]): ChatMessage[] {
  return messages.filter((m) => m && typeof m === 'object' && (m.text || m.cards?.length || !m.welcome_message)).map(fromWire);
}

/**
 * `{{name}}` placeholders of the welcome message, filled from `agent_variables.static`
 * (the reference: static values fill the agent's static-context placeholders). Only the
 * object's own keys with text, number or boolean values count: `{{constructor}}` must not
 * print a native function, and an object would read "[object Object]".
 */
export function fillPlaceholders(template: string, values: Record<string, unknown> | undefined): string {
  const filled = template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    const value = values && Object.hasOwn(values, name) ? values[name] : undefined;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  });
  // An unfilled placeholder should read naturally: "Hi !" becomes "Hi!".
  return filled.replace(/[ \t]+([!?.,;:])/g, '$1').replace(/[ \t]{2,}/g, ' ');
}

/**
 * A question the reader asked (here, or in a tab or page before this one): its image, from
 * an upload, storage or another tab, passes the URL allow-list like every other URL.
 */
export function userMessage(text: string, imageUrl?: string, createdAt?: string): ChatMessage {
  return {
    key: localKey('user'),
    role: 'user',
    text,
    cards: [],
    suggestions: [],
    createdAt,
    imageUrl: safeImageUrl(imageUrl) ?? undefined,
    state: 'done',
  };
}

/** The agent's reply as a turn starts: empty (or what arrived before, on a resume), streaming. */
export function emptyReply(text = ''): ChatMessage {
  return { key: localKey('agent'), role: 'agent', text, cards: [], suggestions: [], state: 'streaming' };
}

/** A reply with text that no longer arrives: it can be copied or read aloud. */
export const finished = (m: ChatMessage) => m.role === 'agent' && !!m.text && m.state !== 'streaming' && m.state !== 'queued';

/** Position in `messages` of the user message of turn `turn`. */
export function userMessageIndex(messages: readonly ChatMessage[], turn: number): number {
  let seen = -1;
  return messages.findIndex((m) => m.role === 'user' && ++seen === turn);
}
