import { html, nothing } from 'lit-html';
import { icons } from '../icons/icons.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import { renderSuggestions } from '../suggestions/suggestions.js';
import { keyed } from './keyed.js';
import { type MessageParts, renderMessageSafely, renderWelcome } from './message.js';

/**
 * Messages rendered when a transcript opens, and per step of "show earlier" (a click, or
 * scrolling to the top): a screenful and more, yet few enough that one step (markdown,
 * style and layout of the new messages) stays well under a 50 ms task on a slow machine,
 * so opening and scrolling a long conversation do not stutter (BENCHMARKS.md).
 */
const WINDOW = 15;

function timeFormat(lang: string): Intl.DateTimeFormat {
  const options = { hour: 'numeric', minute: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat(lang, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options); // a language tag Intl does not take
  }
}

/**
 * The `role="log"` message list: the window of rendered messages, following the latest
 * while the reader is at the bottom (and "jump to latest" when not), and the arrow keys
 * that move between messages.
 */
export class Log {
  /**
   * Index of the first rendered message (long transcripts render their tail first), and
   * whether "jump to latest" shows (the reader scrolled up while the log grew).
   */
  private readonly view: ViewState<{ windowStart: number; showJump: boolean }>;
  private windowAnchor: string | undefined;
  private stickToBottom = true;
  /**
   * Follows the size of the log's content and of its box after layout, so following the
   * conversation costs no layout of its own (a read of `scrollHeight` after every render
   * forced one: a third of a long reply's main-thread time).
   */
  private readonly resized = new ResizeObserver(() => this.follow());
  private observed: Element | null = null;
  private lastHeight = 0;
  /** Where following put the log last: its own scroll, whatever has grown since, is not the reader leaving the end. */
  private followedTo = -1;
  private locale = '';
  /**
   * One formatter per language: every render stamps every rendered message, and creating an
   * Intl.DateTimeFormat per stamp made re-renders of long transcripts cost tens of ms. The
   * first one on a page costs ~25 ms (ICU data), so it is made when there is a message to
   * stamp, or earlier when the browser is idle, not while the widget mounts.
   */
  private timeFormat: Intl.DateTimeFormat | null = null;

  /** What a message shows besides its text: the other features' parts and the time stamp. */
  private readonly parts: MessageParts;

  constructor(
    private readonly ctx: PanelContext,
    parts: Omit<MessageParts, 'time'>,
  ) {
    this.parts = { ...parts, time: (iso) => this.formatTime(iso) };
    this.view = new ViewState(ctx.host, { windowStart: 0, showJump: false });
    const whenIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
    whenIdle(() => (this.timeFormat ??= timeFormat(this.ctx.view.locale)));
  }

  private get element(): HTMLElement | null {
    return this.ctx.host.renderRoot.querySelector('.log');
  }

  willUpdate(): void {
    const { chat, view } = this.ctx;
    const { messages } = chat.state;
    if (view.locale !== this.locale) {
      this.locale = view.locale;
      this.timeFormat = null;
    }
    if (!this.timeFormat && messages.length) this.timeFormat = timeFormat(this.locale);
    // A newly loaded transcript renders its latest messages only; earlier ones follow on
    // demand, so a 500-message thread opens as fast as a short one. Set during this update:
    // it renders with it, without asking for another.
    const first = messages[0]?.key;
    if (first !== this.windowAnchor) {
      this.windowAnchor = first;
      this.windowStart = Math.max(0, messages.length - WINDOW);
    }
  }

  private get windowStart(): number {
    return this.view.value.windowStart;
  }

  private set windowStart(windowStart: number) {
    this.view.set({ windowStart });
  }

  /** A new transcript arrived (its first message changed): the features reset what they kept per message. */
  get anchor(): string | undefined {
    return this.windowAnchor;
  }

  updated(): void {
    const log = this.element;
    if (log && log !== this.observed) {
      this.resized.disconnect();
      this.resized.observe(log);
      this.resized.observe(log.firstElementChild!);
      this.observed = log;
    }
    // A hidden page has no frames, hence no ResizeObserver callbacks: it follows as it
    // renders (seldom: streamed tokens render once a frame), so its log is where it
    // belongs whenever it is read or shown again.
    if (document.hidden) this.follow();
  }

  /** Auto-scroll follows the conversation only while the reader is at the bottom. */
  private follow(): void {
    const log = this.element;
    if (!log) return;
    const grew = log.scrollHeight > this.lastHeight;
    this.lastHeight = log.scrollHeight;
    if (this.stickToBottom) {
      log.scrollTop = log.scrollHeight;
      this.followedTo = log.scrollTop;
    } else if (grew && !this.view.value.showJump) {
      this.view.set({ showJump: true });
    }
  }

  render(overlay: unknown) {
    const { messages, starters } = this.ctx.chat.state;
    const t = this.ctx.text;
    const last = messages.at(-1);
    return html`<div class="log-wrap">
      <div part="log" class="log" role="log" aria-live="off" aria-label=${t.messageListLabel} tabindex="0" @scroll=${this.onScroll} @keydown=${this.onKeyDown}>
        <div class="log-content">
        ${renderWelcome(this.ctx)}
        ${messages.length ? nothing : html`<slot name="empty"></slot>`}
        ${
          this.windowStart > 0
            ? html`<button part="load-earlier" class="text-button load-earlier" type="button" @click=${this.showEarlier}>
              ${t.showEarlier(this.windowStart)}
            </button>`
            : nothing
        }
        ${keyed(
          messages.slice(this.windowStart),
          (m) => m.key,
          // A keystroke or a token renders again only the message that changed (`revision`).
          (m) => [m, m === last, this.ctx.revision],
          (m) => renderMessageSafely(this.ctx, this.parts, m, m === last),
        )}
        ${this.renderTyping()}
        ${messages.length || !starters.length ? nothing : renderSuggestions(starters, t, { onSelect: (s) => this.ctx.pickSuggestion(s) })}
        </div>
      </div>
      ${overlay}
      ${
        this.view.value.showJump
          ? html`<button part="jump-to-latest" class="jump" type="button" @click=${this.jumpToLatest}>${icons.arrowDown} ${t.jumpToLatest}</button>`
          : nothing
      }
    </div>`;
  }

  private renderTyping() {
    const { chat } = this.ctx;
    const last = chat.state.messages.at(-1);
    const waiting = chat.busy && !(last?.role === 'agent' && last.text);
    if (!waiting) return nothing;
    const label = chat.state.status === 'reconnecting' ? this.ctx.text.reconnecting : this.ctx.text.typing;
    // The row takes the column (like a message); the indicator is a small bubble at its start.
    return html`<div class="typing-row">
      <div part="typing" class="typing" role="status" aria-label=${label}><span></span><span></span><span></span></div>
    </div>`;
  }

  private formatTime(iso: string | undefined): string {
    if (!iso) return '';
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : (this.timeFormat?.format(date) ?? '');
  }

  // Listeners are arrow functions: lit-html calls them with the element as `this`.
  private readonly onScroll = (): void => {
    const log = this.element;
    if (!log) return;
    if (this.windowStart > 0 && log.scrollTop < 48) this.showEarlier();
    // The scroll event of following comes a frame later, when the reply may have grown.
    if (this.stickToBottom && log.scrollTop === this.followedTo) return;
    this.stickToBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 32;
    if (this.stickToBottom && this.view.value.showJump) this.view.set({ showJump: false });
  };

  /** Renders the previous step of messages and keeps what the reader sees where it was. */
  private readonly showEarlier = (): void => {
    const log = this.element;
    const { host } = this.ctx;
    if (!log || this.windowStart === 0) return;
    const fromBottom = log.scrollHeight - log.scrollTop;
    this.windowStart = Math.max(0, this.windowStart - WINDOW);
    void host.updateComplete.then(() => {
      log.scrollTop = log.scrollHeight - fromBottom;
    });
  };

  private readonly jumpToLatest = (): void => {
    const log = this.element;
    if (!log) return;
    this.stickToBottom = true;
    this.view.set({ showJump: false });
    // No animation where nobody sees it (a hidden page has no frames to run it in).
    const instant = document.hidden || matchMedia('(prefers-reduced-motion: reduce)').matches;
    log.scrollTo({ top: log.scrollHeight, behavior: instant ? 'auto' : 'smooth' });
    this.ctx.focusInput();
  };

  /**
   * On the log or on a message, ArrowUp/ArrowDown move between messages, Home/End go to the
   * first/last; from the log itself ArrowUp starts at the latest message. Keys pressed on a
   * control inside a message (links, cards, buttons) keep their own meaning.
   */
  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const log = event.currentTarget as HTMLElement;
    const messages = this.ctx.focusKeeper.messages();
    const onLog = event.target === log;
    const index = messages.indexOf(event.target as HTMLElement);
    if ((!onLog && index < 0) || !messages.length) return;
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowUp') next = onLog ? messages.at(-1) : messages[index - 1];
    else if (event.key === 'ArrowDown') next = onLog ? messages[0] : messages[index + 1];
    else if (event.key === 'Home') next = messages[0];
    else if (event.key === 'End') next = messages.at(-1);
    if (!next) return;
    event.preventDefault();
    next.focus();
  };
}
