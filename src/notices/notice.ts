import { html, nothing } from 'lit-html';
import type { Strings } from '../i18n/index.js';
import { icons } from '../icons/icons.js';

/** An error notice as the reader sees it; what it says comes from the caller. */
export interface NoticeView {
  title: string;
  /** Per-field messages as a list, or one sentence after the title. */
  body?: string | readonly string[];
  /** Offers Retry when given. */
  onRetry?: () => void;
  /** Offers a close button when given. */
  onDismiss?: () => void;
  id?: string;
  onKeyDown?: (event: KeyboardEvent) => void;
}

/**
 * The widget's one error notice template (`part="error"`): the conversation's failures,
 * configuration problems and a hand-off form that could not load all read and act alike.
 */
export function renderNotice(t: Strings, view: NoticeView) {
  const { body, onRetry, onDismiss } = view;
  return html`<div part="error" id=${view.id ?? nothing} class="notice" role="alert" @keydown=${view.onKeyDown}>
    <div class="notice-text">
      <strong>${view.title}</strong>
      ${
        typeof body === 'string'
          ? body
          : body?.length
            ? html`<ul>
              ${body.map((d) => html`<li>${d}</li>`)}
            </ul>`
            : nothing
      }
    </div>
    ${
      onRetry || onDismiss
        ? html`<div class="actions">
          ${
            onRetry
              ? html`<button part="retry-button" class="text-button retry" type="button" @click=${onRetry}>${t.retry}</button>`
              : nothing
          }
          ${
            onDismiss
              ? html`<button class="icon-button" type="button" aria-label=${t.dismiss} title=${t.dismiss} @click=${onDismiss}>
                ${icons.close}
              </button>`
              : nothing
          }
        </div>`
        : nothing
    }
  </div>`;
}

/**
 * Configuration problems (a missing `base-url`, a bad `thread-id`…) as the page's visitor sees
 * them: a shopper cannot fix them, so a widget that cannot work reads "Chat is unavailable"
 * and one that works despite them (a setting fell back to its default) says nothing. The
 * developer gets the problems themselves here with `debug` or on a local host, and always in
 * the console.
 */
export function renderConfigNotice(t: Strings, problems: readonly string[], o: { developer: boolean; fatal: boolean }) {
  if (o.developer) return renderNotice(t, { title: t.errorConfiguration(), body: problems });
  return o.fatal ? renderNotice(t, { title: t.chatUnavailable }) : nothing;
}
