import { html, nothing } from 'lit-html';
import { markdown } from '../markdown/markdown.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { renderSuggestions } from '../suggestions/suggestions.js';
import { warnOnce } from '../warn.js';

/** What a message shows besides its text: the parts other features render. */
export interface MessageParts {
  cards(m: ChatMessage): unknown;
  turnControls(m: ChatMessage): unknown;
  /** Under the row of turn controls: what one of them opened (the reason form after a thumbs-down). */
  belowControls(m: ChatMessage): unknown;
  /** The editor, when this user message is being edited (null otherwise). */
  editor(m: ChatMessage): unknown;
  time(iso: string | undefined): string;
}

export function renderWelcome(ctx: PanelContext) {
  const { chat, host, labels } = ctx;
  const { welcome } = chat.state;
  if (!welcome) return nothing;
  return html`<article part="welcome message message-agent" class="message agent welcome" tabindex="-1" aria-label=${ctx.text.welcomeLabel}>
    <div part="bubble" class="bubble">
      <div part="text" class="text" dir="auto" ${markdown(welcome, { allowHtml: host.allowHtml, labels })}></div>
    </div>
  </article>`;
}

/** The error boundary of one message: what cannot be rendered shows as its plain text. */
export function renderMessageSafely(ctx: PanelContext, parts: MessageParts, m: ChatMessage, latest: boolean) {
  try {
    return renderMessage(ctx, parts, m, latest);
  } catch (error) {
    warnOnce('a message could not be rendered; it is shown as plain text.', error);
    return html`<article part="message message-${m.role}" class="message ${m.role}" data-key=${m.key} tabindex="-1">
      <div part="bubble" class="bubble"><p part="text" class="text plain">${m.text}</p></div>
    </article>`;
  }
}

function renderMessage(ctx: PanelContext, parts: MessageParts, m: ChatMessage, latest: boolean) {
  const { chat, host, labels } = ctx;
  const t = ctx.text;
  const streaming = m.state === 'streaming';
  if (streaming && !m.text) return nothing;
  // A reply cut off mid-syntax keeps the form it had while streaming (half a table held
  // back) instead of settling into stray pipes and empty cells.
  const cutOff = m.state === 'stopped' || m.state === 'interrupted';
  const meta = m.state === 'stopped' ? t.stopped : m.state === 'interrupted' ? t.interrupted : m.state === 'queued' ? t.queued : '';
  const editor = m.role === 'user' ? parts.editor(m) : null;
  return html`<article
    part="message message-${m.role}"
    class="message ${m.role} ${m.state}"
    data-key=${m.key}
    aria-busy=${streaming ? 'true' : 'false'}
    aria-label=${m.role === 'user' ? t.userName : host.agentDisplayName || t.agentName}
    tabindex="-1"
  >
    <div part="bubble" class="bubble ${editor ? 'editing' : ''}">
      ${m.imageUrl ? html`<img class="attachment" src=${m.imageUrl} alt=${t.attachedImage} loading="lazy" />` : nothing}
      ${
        m.role === 'user'
          ? (editor ?? html`<div part="text" class="text" dir="auto">${m.text}</div>`)
          : html`<div part="text" class="text" dir="auto" ${markdown(m.text, { streaming: streaming || cutOff, allowHtml: host.allowHtml, labels })}></div>`
      }
    </div>
    ${m.cards.length ? parts.cards(m) : nothing}
    <div part="meta" class="meta"><span>${meta || parts.time(m.createdAt)}</span>${parts.turnControls(m)}</div>
    ${parts.belowControls(m)}
    ${
      latest && m.role === 'agent' && m.state === 'done' && m.suggestions.length && !chat.busy
        ? renderSuggestions(m.suggestions, t, { onSelect: (s) => ctx.pickSuggestion(s) })
        : nothing
    }
  </article>`;
}
