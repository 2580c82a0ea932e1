import { html, nothing } from 'lit-html';
import { markdown } from '../markdown/markdown.js';
import type { MessageAction, PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { renderSuggestions } from '../suggestions/suggestions.js';
import { warnOnce } from '../warn.js';

/** What a message shows besides its text: the parts other features render. */
export interface MessageParts {
  cards(m: ChatMessage): unknown;
  /** The controls in its meta line (copy, feedback, regenerate, edit, versions): one part. */
  turnControls(m: ChatMessage): unknown;
  /** Under the row of turn controls: what one of them opened (the reason form after a thumbs-down). */
  belowControls(m: ChatMessage): unknown;
  /** The editor, when this user message is being edited (null otherwise). */
  editor(m: ChatMessage): unknown;
  time(iso: string | undefined): string;
}

/*
 * A message is many of the log's nodes, so its templates are written without whitespace
 * between tags (each run would be a text node) and bind text as a property (a text binding
 * in a child position adds a comment marker): a one-line question is 15 nodes with its edit
 * button, a paragraph's reply 20 or so besides its text (test/element/light-messages.test.ts).
 * What only some messages have (an image, the editor, cards, suggestions) takes the full
 * template, whose parts cost a marker each.
 */

export function renderWelcome(ctx: PanelContext) {
  const { chat, host, labels } = ctx;
  const { welcome } = chat.state;
  if (!welcome) return nothing;
  return html`<article part="welcome message message-agent" class="message agent welcome" tabindex="-1" aria-label=${ctx.text.welcomeLabel}
    ><div part="bubble" class="bubble"><div part="text" class="text" ${markdown(welcome, { allowHtml: host.allowHtml, labels })}></div></div
  ></article>`;
}

/** The error boundary of one message: what cannot be rendered shows as its plain text. */
export function renderMessageSafely(ctx: PanelContext, parts: MessageParts, m: ChatMessage, latest: boolean) {
  try {
    return renderMessage(ctx, parts, m, latest);
  } catch (error) {
    warnOnce('a message could not be rendered; it is shown as plain text.', error);
    return html`<article part="message message-${m.role}" class="message ${m.role}" data-key=${m.key} tabindex="-1"
      ><div part="bubble" class="bubble"><p part="text" class="text plain" .textContent=${m.text}></p></div
    ></article>`;
  }
}

function renderMessage(ctx: PanelContext, parts: MessageParts, m: ChatMessage, latest: boolean) {
  const { chat, host, labels } = ctx;
  const t = ctx.text;
  const streaming = m.state === 'streaming';
  if (streaming && !m.text) return nothing;
  const user = m.role === 'user';
  // A reply cut off mid-syntax (stopped, failed, or cut at max-reply-length) keeps the form it
  // had while streaming (half a table held back) instead of settling into stray pipes and empty cells.
  const cutOff = m.state === 'stopped' || m.state === 'interrupted' || m.truncated;
  // Said instead of the time: how a reply that did not simply finish ended, or that it waits.
  const meta = m.truncated
    ? t.replyTruncated
    : m.state === 'stopped'
      ? t.stopped
      : m.state === 'interrupted'
        ? t.interrupted
        : m.state === 'queued'
          ? t.queued
          : '';
  const stamp = meta || parts.time(m.createdAt);
  const label = user ? t.userName : host.agentDisplayName || t.agentName;
  const controls = parts.turnControls(m);
  const below = user ? nothing : parts.belowControls(m);
  const editor = user ? parts.editor(m) : null;
  const suggestions =
    latest && !user && m.state === 'done' && m.suggestions.length && !chat.busy
      ? renderSuggestions(m.suggestions, t, { onSelect: (s) => ctx.pickSuggestion(s) })
      : nothing;
  // A reply's blocks each take the direction of their own text (src/markdown/blocks.ts); a
  // question is a line, and `dir="auto"` costs nothing there.
  const text = user
    ? html`<div part="text" class="text" dir="auto" .textContent=${m.text}></div>`
    : html`<div part="text" class="text" ${markdown(m.text, { streaming: streaming || cutOff, allowHtml: host.allowHtml, labels })}></div>`;
  if (!m.imageUrl && !editor && !m.cards.length && suggestions === nothing && below === nothing) {
    return html`<article part="message message-${m.role}" class="message ${m.role} ${m.state}" data-key=${m.key}
      aria-busy=${streaming ? 'true' : 'false'} aria-label=${label} tabindex="-1"
      ><div part="bubble" class="bubble">${text}</div
      ><div part="meta" class="meta"><span .textContent=${stamp}></span>${controls}</div
    ></article>`;
  }
  return html`<article part="message message-${m.role}" class="message ${m.role} ${m.state}" data-key=${m.key}
    aria-busy=${streaming ? 'true' : 'false'} aria-label=${label} tabindex="-1"
    ><div part="bubble" class="bubble ${editor ? 'editing' : ''}"
      >${m.imageUrl ? html`<img class="attachment" src=${m.imageUrl} alt=${t.attachedImage} loading="lazy" />` : nothing}${editor ?? text}</div
    >${m.cards.length ? parts.cards(m) : nothing}<div part="meta" class="meta"><span .textContent=${stamp}></span>${controls}</div
    >${below}${suggestions}</article>`;
}

/**
 * A click on a control inside a message that says what it does (`data-act`): the action
 * registered under that name runs with the message. True when one ran.
 */
export function actOn(event: Event, messages: readonly ChatMessage[], actions: ReadonlyMap<string, MessageAction>): boolean {
  const target = event.composedPath()[0];
  const control = target instanceof Element ? target.closest<HTMLElement>('[data-act]') : null;
  const action = control && !control.matches(':disabled') ? actions.get(control.dataset.act!) : undefined;
  const key = control?.closest<HTMLElement>('[data-key]')?.dataset.key;
  const m = action && messages.find((message) => message.key === key);
  if (!m) return false;
  action(m, control!, event);
  return true;
}
