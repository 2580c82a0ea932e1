import { html, nothing } from 'lit';
import type { Strings } from '../i18n/strings.js';
import { type HistoryEntry, relativeTime } from '../state/history.js';
import { icons } from './icons.js';

type Labels = Pick<Strings, 'history' | 'historyEmpty' | 'untitledConversation' | 'removeConversation' | 'close'>;

export interface HistoryOptions {
  current: string | null;
  locale: string;
  onPick(threadId: string): void;
  onRemove(threadId: string): void;
  onClose(): void;
}

/** The list of earlier conversations with this agent; each entry opens or removes one. */
export function renderHistory(entries: readonly HistoryEntry[], strings: Labels, opts: HistoryOptions) {
  return html`<div part="history" class="history" role="dialog" aria-label=${strings.history}>
    <div class="history-head">
      <h3>${strings.history}</h3>
      <button type="button" class="icon-button" aria-label=${strings.close} title=${strings.close} @click=${opts.onClose}>
        ${icons.close}
      </button>
    </div>
    ${entries.length
      ? html`<ul class="history-list">
          ${entries.map(
            (entry) => html`<li>
              <button
                type="button"
                class="history-open"
                aria-current=${entry.id === opts.current ? 'true' : nothing}
                @click=${() => opts.onPick(entry.id)}
              >
                <span class="history-title" dir="auto">${entry.title || strings.untitledConversation}</span>
                <span class="history-date">${relativeTime(entry.updatedAt, opts.locale)}</span>
              </button>
              <button
                type="button"
                class="icon-button small"
                aria-label=${`${strings.removeConversation}: ${entry.title || strings.untitledConversation}`}
                title=${strings.removeConversation}
                @click=${() => opts.onRemove(entry.id)}
              >
                ${icons.trash}
              </button>
            </li>`,
          )}
        </ul>`
      : html`<p class="history-empty">${strings.historyEmpty}</p>`}
  </div>`;
}
