import { html, nothing } from 'lit-html';
import { icons } from '../icons/icons.js';
import type { Strings } from '../i18n/index.js';

export interface HeaderView {
  heading: string;
  /** The builder preview's thread title (src/preview/), beside the heading. */
  title: unknown;
  launcher: boolean;
  historyOpen: boolean;
  /** The features' buttons (place `headerButtons`: the hand-off's, the save button). */
  buttons: unknown;
  onHistory(): void;
  onNewThread(): void;
  onClose(): void;
}

/**
 * The header bar: the host's content (slot `header`: a logo, an avatar), the title, then
 * hand-off, save, history, new conversation and (launcher) close. A plain `div`, not `<header>`:
 * inside the launcher's dialog, axe (and some screen readers) take a `<header>` for the
 * page's banner, a second one beside the host page's own.
 */
export function renderHeader(t: Strings, view: HeaderView) {
  return html`<div part="header" class="header">
    <slot name="header"></slot>
    <h2 part="heading">${view.heading}</h2>
    ${view.title}
    ${view.buttons}
    <button
      part="history-button"
      class="icon-button"
      type="button"
      title=${t.history}
      aria-label=${t.history}
      aria-expanded=${view.historyOpen ? 'true' : 'false'}
      @click=${view.onHistory}
    >
      ${icons.history}
    </button>
    <button part="new-button" class="icon-button" type="button" title=${t.newConversation} aria-label=${t.newConversation} @click=${view.onNewThread}>
      ${icons.plus}
    </button>
    ${
      view.launcher
        ? html`<button part="close-button" class="icon-button" type="button" aria-label=${t.close} title=${t.close} @click=${view.onClose}>
          ${icons.close}
        </button>`
        : nothing
    }
  </div>`;
}
