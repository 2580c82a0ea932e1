import { html, nothing } from 'lit-html';
import { icons } from '../icons/icons.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import { renderSuggestions } from '../suggestions/suggestions.js';
import type { Feature } from '../panel/feature.js';
import type { Chunk } from '../lazy.js';
import type { ChatMessage } from '../state/messages.js';
import { keyed } from './keyed.js';
import { Stamps } from './stamps.js';
import { type MessageParts, renderMessageSafely, renderWelcome } from './message.js';
import { type LogWindow, type ReadingHost, MOST, MOVES, WINDOW } from './window.js';

type ReadingModule = typeof import('./reading.js');

/**
 * The messages outside the window: their text, hidden until found, so Find in page reaches
 * them (the window moves there), at a few nodes and no layout each. The list is drawn from
 * its messages alone: a streamed token compares them by identity and draws none, instead of
 * working out every one's key and place (BENCHMARKS.md "A token walks no hidden message").
 * They sit in one positioned box: as positioned boxes of their own, every layout of the
 * log's column placed each of them (BENCHMARKS.md "A token lays out no hidden message").
 */
const hidden = (messages: readonly ChatMessage[]) =>
  html`<div class="found">
    ${keyed(
      messages,
      (m) => m.key,
      (m) => [m],
      (m) => html`<p class="found" hidden="until-found" data-key=${m.key}>${m.text}</p>`,
      [messages.length, ...messages],
    )}
  </div>`;

/**
 * The `role="log"` message list: the window of rendered messages, following the latest
 * while the reader is at the bottom (and "jump to latest" when not), and the arrow keys
 * that move between messages.
 */
export class Log implements ReadingHost {
  /** The rendered window, and whether "jump to latest" shows (the reader scrolled up while the log grew). */
  readonly view: ViewState<LogWindow>;
  /**
   * Moving the window and the arrow keys between messages (src/log/reading.ts), a chunk:
   * fetched when a conversation outgrows the first window or the log takes focus.
   */
  private readonly __reading: Feature<ReadingModule>;
  private __windowAnchor: string | undefined;
  /** The latest message when the window was last placed: a new question of the reader's brings the latest back. */
  private __latest: string | undefined;
  stickToBottom = true;
  /** The window or a question was just placed: the log goes there as it renders, before any scroll event reads it. */
  toEnd = false;
  placed: string | null = null;
  spaceFor: string | null = null;
  /** Where this tab's page before left the reader (reading.ts `keepPlace`) is taken once, with the first transcript. */
  private __tookPlace = false;
  private __jumpTimer = 0;
  /** How many messages there were when the reader last saw the end: those after are new to them ("jump to latest"). */
  private __seen = 0;
  /**
   * Follows the size of the log's content and of its box after layout, so following the
   * conversation costs no layout of its own (a read of `scrollHeight` after every render
   * forced one: a third of a long reply's main-thread time).
   */
  private readonly __resized = new ResizeObserver(() => this.__follow());
  private __observed: Element | null = null;
  private __lastHeight = 0;
  /** The log's scroll position at its last scroll event: only a move up is the reader leaving the end. */
  private __lastTop = 0;
  private __locale = '';
  /**
   * One set of formatters per language (stamps.ts): every render stamps every rendered message,
   * and creating an Intl.DateTimeFormat per stamp made re-renders of long transcripts cost tens of ms. The
   * first one on a page costs 15-20 ms in Chromium (V8 builds its table of ICU's locales
   * then; BENCHMARKS.md "What 1.5x of Deep Chat would take"), so it is made in a task of
   * its own when the browser is idle, never in a render: made there, it was a third of the
   * render that shows a restored conversation (a 70 ms task). Stamps show a moment after
   * their messages. It is made once there is a conversation, or one on its way (a thread to
   * load): a panel with the welcome alone, a first visit's, pays nothing for it until its
   * first message (BENCHMARKS.md "The load, alone").
   */
  private __stamps: Stamps | null = null;
  private __formatting = false;

  /** What a message shows besides its text: the other features' parts and the time stamp. */
  private readonly __parts: MessageParts;

  constructor(
    readonly ctx: PanelContext,
    /** Its reading moves' chunk (src/chunks.ts `reading`), handed in by the panel. */
    reading: Chunk<ReadingModule>,
    parts: Omit<MessageParts, 'time'>,
  ) {
    this.__reading = ctx.feature(reading);
    this.__parts = { ...parts, time: (iso) => this.__formatTime(iso) };
    this.view = new ViewState(ctx.host, { start: 0, end: Infinity, showJump: false });
  }

  /** Makes the language's formatter when the browser is idle (within 100 ms), then stamps the messages shown. */
  private __formatLater(): void {
    if (this.__formatting) return;
    this.__formatting = true;
    const whenIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 0));
    whenIdle(
      () => {
        this.__formatting = false;
        this.__stamps ??= new Stamps(this.ctx.view.locale);
        if (this.ctx.chat.state.messages.length) this.ctx.host.requestUpdate();
      },
      { timeout: 100 },
    );
  }

  get element(): HTMLElement | null {
    return this.ctx.host.renderRoot.querySelector('.log');
  }

  willUpdate(): void {
    const { chat, view } = this.ctx;
    const { messages } = chat.state;
    const count = messages.length;
    if (view.locale !== this.__locale) {
      this.__locale = view.locale;
      this.__stamps = null;
    }
    if (!this.__stamps && (count || chat.threadId)) this.__formatLater();
    // Placed during this update, the window renders with it, without asking for another.
    let { start, end } = this.view.value;
    const first = messages[0]?.key;
    const latest = messages.at(-1);
    if (first !== this.__windowAnchor && first === this.placed) {
      // The first question of a conversation (or its edit): the conversation goes on.
      this.__windowAnchor = first;
    }
    if (first !== this.__windowAnchor) {
      // A newly loaded transcript renders its latest messages only; earlier ones follow on
      // demand, so a 2,000-message thread opens as fast as a short one.
      this.__windowAnchor = first;
      start = count - WINDOW;
      end = Infinity;
      this.placed = this.spaceFor = null;
      this.__seen = count;
      // The first transcript of the page: the reader goes back where this tab's page before
      // left them, if it kept a place (the moves' work: they are wanted as soon as there is a
      // conversation to read, or to type in).
      if (!this.__tookPlace && count) void this.__reading.want().then((module) => module?.restorePlace(this));
      this.__tookPlace ||= count > 0;
    } else if (this.placed && latest?.key !== this.__latest) {
      // A new turn of the reader's (typed, a suggestion, an edit, a rerun): the latest come into view.
      if (end < count) start = count - WINDOW;
      end = Infinity;
      this.__seen = messages.findIndex((m) => m.key === this.placed) + 1;
    }
    this.__latest = latest?.key;
    // Following the latest, the window lets go of its top as the conversation grows.
    if (end >= count && (this.stickToBottom || this.placed)) start = Math.max(start, count - MOST);
    start = Math.max(0, Math.min(start, count - WINDOW));
    if (start !== this.view.value.start || end !== this.view.value.end) this.view.set({ start, end });
    if (start > 0) void this.__reading.want(); // taken at once when the chunk is here already
  }

  /**
   * Hands an event (a key, a scroll, "show earlier", Find in page) to the reading moves, once
   * their chunk is here; a failure is said by the panel's notice. The target is taken now:
   * an event from a shadow tree has none once dispatched.
   */
  private readonly __read = (event: Event): void => {
    const what = (event as KeyboardEvent).key ?? event.type;
    const target = event.target as HTMLElement;
    void this.__reading.want().then((module) => module?.act(this, what, target));
  };

  /**
   * The reader asked something (typed, a suggestion, the page's send(), an edit or a rerun):
   * its question is placed near the log's top, wherever the reader was, and its reply grows
   * below it. The log keeps it there until the reader scrolls; space under the turn lets a
   * short reply's question get there too. That is the moves' work (reading.ts, fetched as the
   * reader types: `prefetch`); without them, the latest come into view as they always did.
   */
  place(question: string): void {
    this.prefetch(); // taken at once when the chunk is here already
    const placing = !!this.__reading.module;
    this.placed = this.spaceFor = placing ? question : null;
    this.stickToBottom = !placing;
    this.toEnd = true;
    if (this.view.value.showJump) this.view.set({ showJump: false });
  }

  /** A question is on its way (the reader types, a reply brought suggestions): the moves that place it are fetched. */
  prefetch(): void {
    void this.__reading.want();
  }

  /** A new transcript arrived (its first message changed): the features reset what they kept per message. */
  get anchor(): string | undefined {
    return this.__windowAnchor;
  }

  updated(): void {
    const log = this.element;
    if (log && log !== this.__observed) {
      this.__resized.disconnect();
      this.__resized.observe(log);
      this.__resized.observe(log.firstElementChild!);
      this.__observed = log;
    }
    // A hidden page has no frames, hence no ResizeObserver callbacks: it follows as it
    // renders (seldom: streamed tokens render once a frame), so its log is where it
    // belongs whenever it is read or shown again.
    if (document.hidden || this.toEnd) this.__follow();
    this.toEnd = false;
  }

  /**
   * Auto-scroll: a placed question stays near the top while its reply grows below; else the
   * log follows the conversation only while the reader is at the bottom.
   */
  private __follow(): void {
    const log = this.element;
    if (!log) return;
    const reading = this.__reading.module;
    reading?.fitSpace(this, log);
    const grew = log.scrollHeight > this.__lastHeight;
    this.__lastHeight = log.scrollHeight;
    const count = this.ctx.chat.state.messages.length;
    if (this.placed && reading) {
      if (reading.pin(this, log)) return;
      // Not rendered yet (a resize came before the render that shows it), or withdrawn.
      if (this.ctx.chat.store.find(this.placed)) return;
      this.placed = null;
    }
    if (this.stickToBottom) {
      log.scrollTop = log.scrollHeight;
      // Where following left the log (the browser clamps it, to a box grown taller too) is not
      // the reader's move: a scroll event that comes after more growth compares with it.
      this.__lastTop = log.scrollTop;
      this.__seen = count;
    } else if (grew && !this.view.value.showJump) {
      this.showJump();
    }
  }

  /**
   * Whether the newest message has begun in the reader's view (its top above the log's lower
   * edge): what grows below is its tail, which the reader reads on to by scrolling. Nothing
   * is new to them, so "jump to latest" does not show (it showed under nearly every fresh
   * reply while its start was being read).
   */
  private __newestInView(log: HTMLElement): boolean {
    const key = this.ctx.chat.state.messages.at(-1)?.key;
    const node = key ? log.querySelector<HTMLElement>(`.message[data-key="${CSS.escape(key)}"]`) : null;
    return !!node && node.getBoundingClientRect().top - log.getBoundingClientRect().top < log.clientHeight;
  }

  /**
   * Shows "jump to latest", a task later: it takes a strip under the log, and resizing the log
   * from the ResizeObserver's own callback would be a loop the browser reports as an error.
   */
  showJump(): void {
    this.__jumpTimer ||= window.setTimeout(() => {
      this.__jumpTimer = 0;
      const log = this.element;
      if (this.view.value.showJump || this.stickToBottom || (log && this.__newestInView(log))) return;
      this.view.set({ showJump: true });
      void this.__reading.want(); // what "jump to latest" does
    });
  }

  render(overlay: unknown) {
    const { messages, starters } = this.ctx.chat.state;
    const t = this.ctx.text;
    const last = messages.at(-1);
    const { start, end, showJump } = this.view.value;
    return html`<div class="log-wrap">
      <div
        part="log"
        class="log"
        role="log"
        aria-live="off"
        aria-label=${t.messageListLabel}
        tabindex="0"
        @scroll=${this.__onScroll}
        @keydown=${this.__onKeyDown}
        @focusin=${this.__read}
        @beforematch=${this.__read}
      >
        <div class="log-content">
        ${renderWelcome(this.ctx)}
        ${messages.length ? nothing : html`<slot name="empty"></slot>`}
        ${
          // Shows with the moves that do what it says (a window that starts late asks for them).
          start > 0 && this.__reading.module
            ? html`<button part="load-earlier" class="text-button load-earlier" type="button" @click=${this.__read}>
              ${t.showEarlier(start)}
            </button>`
            : nothing
        }
        ${hidden(messages.slice(0, start))}
        ${keyed(
          messages.slice(start, end),
          (m) => m.key,
          // A token renders again only the message that changed, as does a feature's state
          // shown in some messages (`marks`); a render the panel asked for (`revision`), all.
          (m) => [m, m === last, this.ctx.renders.revision, this.ctx.renders.marks(m.key)],
          (m) => renderMessageSafely(this.ctx, this.__parts, m, m === last),
          // A keystroke (the same messages, window, revision and marks) leaves the list as it
          // is: typing costs the same at turn 1 and turn 200.
          [messages, this.ctx.renders.revision, start, end, this.ctx.renders.touches],
        )}
        ${hidden(messages.slice(end))}
        ${this.__renderTyping()}
        ${messages.length || !starters.length ? nothing : renderSuggestions(starters, t, { onSelect: (s) => this.ctx.pickSuggestion(s) })}
        </div>
        <div class="turn-space"></div>
      </div>
      ${overlay}
      ${
        // Not under the history panel, which covers the log (its shadow fell on the pill).
        (showJump || end < messages.length) && this.__reading.module && overlay === nothing
          ? this.__renderJump(messages.length - this.__seen)
          : nothing
      }
    </div>`;
  }

  /**
   * "Jump to latest", with how many messages came since the reader last saw the end; under
   * the log, never over it. What it does and its style come with the reading moves' chunk,
   * which showing it asks for (`showJump`): it shows when they are here.
   */
  private __renderJump(unseen: number) {
    const t = this.ctx.text;
    const label = unseen > 0 ? t.newMessages(unseen) : '';
    return html`<button
      part="jump-to-latest"
      class="jump"
      type="button"
      aria-label=${label ? `${t.jumpToLatest}: ${label}` : nothing}
      @click=${this.__read}
    >
      ${icons.arrowDown} ${label || t.jumpToLatest}
    </button>`;
  }

  private __renderTyping() {
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

  private __formatTime(iso: string | undefined): string {
    if (!iso) return '';
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : (this.__stamps?.format(date) ?? '');
  }

  // Listeners are arrow functions: lit-html calls them with the element as `this`.
  private readonly __onScroll = (event: Event): void => {
    const log = this.element;
    if (!log) return;
    const { start, end } = this.view.value;
    const count = this.ctx.chat.state.messages.length;
    const top = log.scrollTop;
    const up = top < this.__lastTop;
    this.__lastTop = top;
    if (start > 0 || end < count) this.__read(event); // near an edge, the window moves
    const reading = this.__reading.module;
    if (reading?.scrolled(this, log)) return;
    // Keeping the reader's place (and a placed question's) is the moves' work.
    if (!reading) void this.__reading.want().then((module) => module?.scrolled(this, log));
    // Still at the end (the log's own follow, or the browser clamping as content shrank): the
    // reader stays with the latest. The height is read now (layout is fresh after scrollTop):
    // the one of the last follow, a frame old after the log grew, took a reader who scrolled
    // up just then for one at the end, and pulled them back down.
    const atEnd = log.scrollHeight - top - log.clientHeight < 32;
    if (this.stickToBottom && atEnd) return;
    this.stickToBottom = end >= count && (atEnd || (this.stickToBottom && !up));
    // At the end, or where the newest message begins: all of them seen.
    if (this.stickToBottom || (this.view.value.showJump && end >= count && this.__newestInView(log))) {
      this.__seen = count;
      if (this.view.value.showJump) this.view.set({ showJump: false });
    }
  };

  /**
   * The keys that move between messages, pressed on the log or on a message (on a control
   * inside one, a link, a card, a button, they keep their own meaning): taken at once, and
   * moved by their chunk (src/log/reading.ts).
   */
  private readonly __onKeyDown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !MOVES.includes(event.key)) return;
    if (!(event.target as Element).matches('.log, .log-content > .message')) return;
    event.preventDefault();
    this.__read(event);
  };
}
