/**
 * The events `<agent-chat>` fires, as types, and `emit()`, the one way the widget fires
 * them. Every one is a `CustomEvent` with `bubbles: true` and `composed: true`, so a
 * listener on the element, an ancestor, the document or the window receives it.
 *
 * @example
 * ```ts
 * chat.addEventListener('agent-chat-message', (event) => {
 *   event.detail.message.text; // typed: HTMLElementEventMap includes AgentChatEventMap
 * });
 * ```
 */
import type { CardAction, CardVariantChoice } from './cards/actions.js';
import type { Card, Channel, Message } from './client/types.js';

/** `agent-chat-ready`: welcome message or transcript have loaded. */
export interface ReadyDetail {
  /** The open thread, or `null` before the first message of a new conversation. */
  threadId: string | null;
}

/** `agent-chat-send` (cancelable): a message is about to be sent. */
export interface SendDetail {
  text: string;
  threadId: string | null;
  /** The signed URL returned by `uploadImage`, when an image is attached. */
  imageUrl: string | null;
}

/** `agent-chat-message`: an agent reply is complete. */
export interface MessageDetail {
  /** The reply as the service sent it (text, cards, follow-up suggestions, ids). */
  message: Message;
  threadId: string | null;
}

/** Why the thread in use changed. */
export type ThreadReason = 'created' | 'rerun' | 'restored' | 'switched' | 'reset';

/** `agent-chat-thread`: the thread in use changed. */
export interface ThreadDetail {
  /** The new thread; `null` after `reset` (the next message creates one). */
  threadId: string | null;
  previousThreadId: string | null;
  reason: ThreadReason;
}

/** `agent-chat-error`: a request failed and the user sees a notice. */
export interface ErrorEventDetail {
  /** The error envelope's code, or `network`, `stream`, `auth`, `timeout`, `http_<status>`, `chunk` (part of the widget's code could not load), `turn.busy` (another tab sent at the same moment), `turn.not_received` (a page before this one sent it and went; the service never got it). */
  code: string;
  message: string;
  /** HTTP status, when there was a response. */
  status: number | null;
  /** The service's request id, for support tickets. */
  requestId: string | null;
  /** Whether trying again may succeed (the notice then offers a retry). */
  retryable: boolean;
}

/** `agent-chat-suggestion` (cancelable): a suggestion chip is about to be sent. */
export interface SuggestionDetail {
  text: string;
}

/**
 * `agent-chat-card-click` (cancelable): a card was activated. Without `preventDefault()` a
 * card with a safe URL opens it in a new tab.
 */
export interface CardClickDetail {
  card: Card;
  /** The card's link after the URL allow-list, or `null` when it has none. */
  url: string | null;
}

/** `agent-chat-channel`: the conversation was handed off to a messaging channel. */
export interface ChannelDetail {
  channel: Channel;
  threadId: string;
  /** E.164, as the user entered it. */
  phoneNumber: string;
}

/** Why a reply was rated down, when the reader picked one of the offered reasons. */
export type FeedbackCategory = 'inaccurate' | 'unhelpful' | 'unsafe';

/**
 * `agent-chat-feedback`: the reader rated a reply (attribute `feedback`), took a rating
 * back (`rating: null`), or said why after a thumbs-down (fired again, with `reason`). The
 * service has no feedback operation: the host sends it where it wants.
 */
export interface FeedbackDetail {
  /** The reply's id (its interaction id). */
  messageId: string;
  threadId: string | null;
  rating: 'up' | 'down' | null;
  /** After a thumbs-down: what the reader wrote, else the reason picked, as shown. */
  reason?: string;
  /** After a thumbs-down: the reason picked, as a stable code. */
  category?: FeedbackCategory;
}

/**
 * `agent-chat-link-click` (cancelable): the reader clicked a link in agent text. Without
 * `preventDefault()` it opens in a new tab (`link-target="auto"`: a link to this site in
 * this tab).
 */
export interface LinkClickDetail {
  /** The link's address, absolute (it passed the URL allow-list when it was rendered). */
  url: string;
  /** The link's text. */
  text: string;
  /** The id of the message the link is in; `null` in the welcome message. */
  messageId: string | null;
}

/**
 * `agent-chat-card-action`: the reader pressed one of the `cardActions` on a built-in card,
 * e.g. "Add to cart" after choosing a size.
 */
export interface CardActionDetail {
  /** The action, as set in `cardActions`. */
  action: CardAction;
  /** The card, as the agent sent it. */
  card: Card;
  /** The options chosen on the card, one per `sub_entities` group chosen in (none: `[]`). */
  variant: CardVariantChoice[];
}

/** `agent-chat-disclaimer-accept`: the reader accepted the disclaimer (attribute `disclaimer`). */
export interface DisclaimerAcceptDetail {
  /** The text accepted, as the attribute had it. */
  text: string;
}

/**
 * `agent-chat-preview-rename`: the builder renamed the thread in the preview's header
 * (attribute `preview`); the service has the new title.
 */
export interface PreviewRenameDetail {
  threadId: string;
  /** The title the service now has; `null` when it was cleared. */
  title: string | null;
}

/** `agent-chat-open` / `agent-chat-close` carry no data. */
export type EmptyDetail = Record<string, never>;

/** Event name to event type, for `addEventListener` overloads and framework wrappers. */
export interface AgentChatEventMap {
  'agent-chat-ready': CustomEvent<ReadyDetail>;
  'agent-chat-send': CustomEvent<SendDetail>;
  'agent-chat-message': CustomEvent<MessageDetail>;
  'agent-chat-thread': CustomEvent<ThreadDetail>;
  'agent-chat-error': CustomEvent<ErrorEventDetail>;
  'agent-chat-suggestion': CustomEvent<SuggestionDetail>;
  'agent-chat-card-click': CustomEvent<CardClickDetail>;
  'agent-chat-open': CustomEvent<EmptyDetail>;
  'agent-chat-close': CustomEvent<EmptyDetail>;
  'agent-chat-channel': CustomEvent<ChannelDetail>;
  'agent-chat-feedback': CustomEvent<FeedbackDetail>;
  'agent-chat-link-click': CustomEvent<LinkClickDetail>;
  'agent-chat-card-action': CustomEvent<CardActionDetail>;
  'agent-chat-disclaimer-accept': CustomEvent<DisclaimerAcceptDetail>;
  'agent-chat-preview-rename': CustomEvent<PreviewRenameDetail>;
}

export type AgentChatEventName = keyof AgentChatEventMap;

/**
 * Fires `type` from `target` with its typed `detail`: a misspelt name or a wrong detail is
 * a compile error. Returns false when a listener called `preventDefault()` on a cancelable
 * event.
 */
export function emit<K extends AgentChatEventName>(
  target: EventTarget,
  type: K,
  detail: AgentChatEventMap[K]['detail'],
  cancelable = false,
): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
}
