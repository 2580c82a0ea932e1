/**
 * The history panel, a lazy chunk: the list of earlier conversations, fetched with its
 * stylesheet when the panel is first opened. The list itself (`touch`, `remove`) is kept
 * by the conversation's state in src/state/history.ts.
 */
import { html, nothing } from 'lit-html';
import type { Strings } from '../i18n/strings.js';
import type { HistoryEntry } from '../state/history.js';
import type { PanelContext } from '../panel/context.js';
import { conversationOf, conversations } from './conversations.js';
import { branchIndex } from '../state/branch-index.js';
import { icons } from '../icons/icons.js';

export { styles } from './history.styles.js';

type Labels = Pick<Strings, 'history' | 'historyEmpty' | 'untitledConversation' | 'removeConversation' | 'closeHistory'>;

export interface HistoryOptions {
  current: string | null;
  locale: string;
  onPick(threadId: string): void;
  onRemove(threadId: string): void;
  onClose(): void;
}

/** The list of earlier conversations with this agent; each entry opens or removes one. */
export function renderHistory(entries: readonly HistoryEntry[], strings: Labels, opts: HistoryOptions) {
  return html`<div part="history" class="history" role="dialog" data-refocus=".history-list button" aria-label=${strings.history}>
    <div class="history-head">
      <h3>${strings.history}</h3>
      <button type="button" class="icon-button" aria-label=${strings.closeHistory} title=${strings.closeHistory} @click=${opts.onClose}>
        ${icons.close}
      </button>
    </div>
    ${
      entries.length
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
        : html`<p class="history-empty">${strings.historyEmpty}</p>`
    }
  </div>`;
}

/** "5 minutes ago", "yesterday": the largest unit that fits, in the UI language. */
export function relativeTime(iso: string, locale: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  let format: Intl.RelativeTimeFormat;
  try {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  } catch {
    format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  }
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * The list as the panel shows it: picking a thread hides the list and switches to it,
 * removing one forgets it. `hide` and `close` are the panel's (close returns focus).
 */
export function renderHistoryPanel(ctx: PanelContext, hide: () => void, close: () => void) {
  const { chat, view, text } = ctx;
  const { branches, threadId } = chat;
  const entries = conversations(chat.history, branches);
  // The entry of the conversation in use (it may show another branch of it).
  const index = branchIndex(branches);
  const root = threadId && index.root(threadId);
  const current = entries.find((e) => index.root(e.id) === root)?.id ?? threadId;
  return renderHistory(entries, text, {
    current,
    locale: view.locale,
    onPick: (id) => {
      hide();
      if (id !== current) chat.switchThread(id, 'switched');
      ctx.focusInput();
    },
    onRemove: (id) => {
      // A conversation goes with every branch of it.
      const ids = new Set(conversationOf(branches, id));
      chat.threads.edit('history', (history) => history.filter((e) => !ids.has(e.id)));
    },
    onClose: close,
  });
}
