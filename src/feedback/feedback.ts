/**
 * Feedback on replies (attribute `feedback`), a lazy chunk: thumbs up and down under each
 * finished reply (parts `feedback`, `feedback-up`, `feedback-down`, toggled with
 * `aria-pressed`), and after a thumbs-down an optional reason: one of a few choices and a
 * line of free text. Each change fires `agent-chat-feedback`; the service has no feedback
 * operation, so the host sends it where it wants. Ratings are kept with the conversation
 * (ratings.ts). A chunk of its own: feature.ts fetches it and renders it under each rateable reply.
 */
import { html, nothing, svg } from 'lit-html';
import { live } from '../live.js';
import { emit, type FeedbackCategory } from '../events.js';
import type { Strings } from '../i18n/strings.js';
import { icon } from '../icons/icons.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { Ratings, type Rating } from './ratings.js';

export { styles } from './feedback.styles.js';

const thumb = svg`<path d="M7 11v9H4v-9h3zm0 0l4-7c1.5 0 2.5 1 2 3l-1 3h6a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 16.8 20H7"/>`;
const icons = {
  up: icon(thumb),
  down: icon(svg`<g transform="rotate(180 12 12)">${thumb}</g>`),
};

const CATEGORIES: FeedbackCategory[] = ['inaccurate', 'unhelpful', 'unsafe'];
/** Each reason as the reader sees it (and as `reason` reports a choice without text). */
const reasonLabels = (t: Strings): Record<FeedbackCategory, string> => ({
  inaccurate: t.feedbackInaccurate,
  unhelpful: t.feedbackUnhelpful,
  unsafe: t.feedbackUnsafe,
});
/** The free text is a note, not a transcript. */
const MAX_REASON = 500;

interface Asking {
  id: string;
  category: FeedbackCategory | null;
  text: string;
}

export class FeedbackControl {
  private readonly __ratings = new Ratings();
  /** The reply whose reason form is open, and what the reader has chosen in it so far. */
  private readonly __view: ViewState<{ asking: Asking | null }>;

  constructor(private readonly __ctx: PanelContext) {
    this.__view = new ViewState<{ asking: Asking | null }>(__ctx.host, { asking: null });
    __ctx.onMessageAction('rate', (m, control) => {
      const value = control.dataset.rating as Rating;
      this.__rate(m.id!, this.__ratings.of(m.id!) === value ? null : value);
    });
  }

  private get __asking(): Asking | null {
    return this.__view.value.asking;
  }

  willUpdate(): void {
    this.__ratings.open(this.__ctx.view.config);
  }

  /**
   * The thumbs under `m`, a finished reply with an id (feature.ts decides which). They say what
   * they do (`data-act="rate"`, `data-rating`): the panel's one click listener serves them.
   */
  render(m: ChatMessage) {
    const t = this.__ctx.text;
    const id = m.id!;
    const rating = this.__ratings.of(id);
    const button = (value: Rating, label: string) =>
      html`<button
        part="feedback-${value}"
        class="icon-button small"
        type="button"
        aria-label=${label}
        title=${label}
        aria-pressed=${rating === value ? 'true' : 'false'}
        data-id=${id}
        data-act="rate"
        data-rating=${value}
      >
        ${icons[value]}
      </button>`;
    return html`<div part="feedback" class="feedback" role="group" aria-label=${t.feedbackLabel}>
      ${button('up', t.feedbackUp)}${button('down', t.feedbackDown)}
    </div>`;
  }

  /** The reason form after a thumbs-down, under the row of the reply's actions (in reading and Tab order). */
  renderReason(m: ChatMessage) {
    const id = m.id!;
    const asking = this.__asking;
    if (asking?.id !== id) return nothing;
    const t = this.__ctx.text;
    const labels = reasonLabels(t);
    const submit = (event: Event) => {
      event.preventDefault();
      this.__sendReason(id);
    };
    return html`<form class="feedback-form" aria-label=${t.feedbackReasonTitle} @submit=${submit} @keydown=${this.__onKeyDown}>
      <span class="feedback-title">${t.feedbackReasonTitle}</span>
      <div class="feedback-reasons">
        ${CATEGORIES.map(
          (category) =>
            html`<button
              type="button"
              aria-pressed=${asking.category === category ? 'true' : 'false'}
              @click=${() => this.__edit({ category: asking.category === category ? null : category })}
            >
              ${labels[category]}
            </button>`,
        )}
      </div>
      <div class="feedback-row">
        <input
          class="feedback-text"
          type="text"
          maxlength=${MAX_REASON}
          aria-label=${t.feedbackOther}
          placeholder=${t.feedbackOther}
          .value=${live(asking.text)}
          @input=${(e: Event) => this.__edit({ text: (e.target as HTMLInputElement).value })}
        />
        <button type="submit" class="text-button primary" ?disabled=${!asking.category && !asking.text.trim()}>${t.feedbackSend}</button>
        <button type="button" class="icon-button small" aria-label=${t.dismiss} title=${t.dismiss} @click=${() => this.__closeReason()}>×</button>
      </div>
    </form>`;
  }

  private __rate(id: string, rating: Rating | null): void {
    this.__ratings.set(id, rating);
    this.__notify({ messageId: id, rating });
    this.__view.set({ asking: rating === 'down' ? { id, category: null, text: '' } : null });
    if (rating === 'down') void this.__focus('.feedback-reasons button');
  }

  private __edit(patch: Partial<{ category: FeedbackCategory | null; text: string }>): void {
    if (this.__asking) this.__view.set({ asking: { ...this.__asking, ...patch } });
  }

  private __sendReason(id: string): void {
    const asking = this.__asking;
    if (!asking || asking.id !== id) return;
    const t = this.__ctx.text;
    const labels = reasonLabels(t);
    const text = asking.text.trim().slice(0, MAX_REASON);
    const reason = text || (asking.category ? labels[asking.category] : '');
    if (!reason) return;
    this.__notify({ messageId: id, rating: 'down', reason, ...(asking.category ? { category: asking.category } : {}) });
    this.__closeReason();
    this.__ctx.announce(t.feedbackThanks);
  }

  private __closeReason(): void {
    const id = this.__asking?.id;
    this.__view.set({ asking: null });
    // Focus goes back where the form was opened from.
    if (id) void this.__focus(`[part="feedback-down"][data-id="${CSS.escape(id)}"]`);
  }

  private readonly __onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the form only: not the launcher, not the reply.
    event.stopPropagation();
    this.__closeReason();
  };

  private __notify(detail: { messageId: string; rating: Rating | null; reason?: string; category?: FeedbackCategory }): void {
    emit(this.__ctx.host, 'agent-chat-feedback', { ...detail, threadId: this.__ctx.chat.threadId });
  }

  private async __focus(selector: string): Promise<void> {
    const { host } = this.__ctx;
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}
