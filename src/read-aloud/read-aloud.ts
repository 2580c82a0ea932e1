/**
 * Read a reply aloud (attribute `read-aloud`), a lazy chunk: a button under each finished
 * reply (part `read-aloud-button`, `aria-pressed` while it reads) that speaks the reply's
 * plain text (src/markdown/plain.ts: no markdown syntax read out) with the browser's speech
 * synthesis, in the widget's language. Pressing it again stops; one reply reads at a time,
 * and reading stops when the launcher's panel closes, the conversation changes, the reply
 * goes or the widget leaves the page. feature.ts offers it only where `speechSynthesis` exists.
 */
import { html, svg } from 'lit-html';
import { icon } from '../icons/icons.js';
import type { Chunk } from '../lazy.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import { pieces } from './pieces.js';
import type { ChatMessage } from '../state/messages.js';

const speakerIcon = icon(svg`<path d="M4 9.5v5h3.5L12 18V6L7.5 9.5H4zM15.5 9a4 4 0 0 1 0 6M18 6.5a8 8 0 0 1 0 11"/>`);

/**
 * The most of a reply's markdown read: about twenty minutes of speech. Its plain text is
 * made in one go, and a reply of a megabyte would make it a task of seconds.
 */
const MOST = 20_000;
export class ReadAloud {
  /** The reply being read (its key), while it is. */
  private readonly __view: ViewState<{ reading: string | null }>;
  /** The utterance being spoken: the one whose end goes on to the next piece. */
  private __current: SpeechSynthesisUtterance | null = null;
  /** The thread the reply being read belongs to. */
  private __thread: string | null = null;

  constructor(
    private readonly __ctx: PanelContext,
    /** A reply as plain text (src/markdown/plain.ts), a chunk the panel's announcements use too. */
    private readonly __plain: Chunk<typeof import('../markdown/plain.js')>,
  ) {
    // The button that reads shows in one message: only the messages it leaves and enters render again.
    this.__view = new ViewState<{ reading: string | null }>(
      __ctx.host,
      { reading: null },
      { renders: __ctx.renders, keys: ({ reading }) => [reading] },
    );
    __ctx.onMessageAction('read', (m) => (this.__view.value.reading === m.key ? this.stop() : void this.__read(m)));
    // A widget taken off the page stops talking.
    __ctx.host.addController({ hostDisconnected: () => this.stop() });
  }

  /** The button under `m`, a finished reply (feature.ts decides which); the panel's one click listener serves it (`data-act`). */
  render(m: ChatMessage) {
    const t = this.__ctx.text;
    const reading = this.__view.value.reading === m.key;
    // One name; `aria-pressed` says whether it reads (the tooltip says what a click does).
    return html`<button
      part="read-aloud-button"
      class="icon-button small read-aloud"
      type="button"
      aria-label=${t.readAloud}
      title=${reading ? t.readAloudStop : t.readAloud}
      aria-pressed=${reading ? 'true' : 'false'}
      data-act="read"
    >
      ${speakerIcon}
    </button>`;
  }

  /**
   * Before each render: reading stops once what it reads is gone from view: `read-aloud`
   * turned off, the launcher's panel closed, another conversation (a new one, the history, a
   * branch), or the reply itself (regenerated).
   */
  sync(): void {
    const { host, view, chat } = this.__ctx;
    const key = this.__view.value.reading;
    if (key && (!host.readAloud || (view.launcher && !host.isOpen) || chat.threadId !== this.__thread || !chat.store.find(key)))
      this.stop();
  }

  /**
   * Reads `m`: its plain text from the chunk that announces replies too (fetched as every turn
   * starts, so it is here). Imported statically, the bundler moved it into the panel's load:
   * 0.4 KB gzip more for every inline page.
   */
  private async __read(m: ChatMessage): Promise<void> {
    this.__thread = this.__ctx.chat.threadId;
    this.__view.set({ reading: m.key });
    const synth = speechSynthesis;
    // One utterance at a time, on the whole page: whatever the browser was saying stops.
    this.__current = null;
    synth.cancel();
    let text: string;
    try {
      text = (await this.__plain()).renderPlainText(m.text.slice(0, MOST));
    } catch {
      // Offline, and its code could not come: nothing is read.
      if (this.__view.value.reading === m.key) this.stop();
      return;
    }
    // Pressed again (or another reply's) while the code came.
    if (this.__view.value.reading !== m.key || this.__current) return;
    const queue = pieces(text);
    const lang = this.__ctx.view.locale;
    const next = (): void => {
      const text = queue.shift();
      if (!text) return this.stop();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = lang;
      // An utterance cancelled or replaced ends too: only the current one goes on. One the
      // page or another widget cancelled (speech is one queue per page) stops the reading.
      utterance.onend = () => this.__current === utterance && next();
      utterance.onerror = (event) => {
        if (this.__current !== utterance) return;
        if (event.error !== 'interrupted' && event.error !== 'canceled') return next();
        // Not cancelled again here: that would silence what the other one now says.
        this.__current = null;
        this.stop();
      };
      this.__current = utterance;
      synth.speak(utterance);
    };
    next();
  }

  stop(): void {
    if (this.__current) {
      this.__current = null;
      speechSynthesis.cancel();
    }
    if (this.__view.value.reading) this.__view.set({ reading: null });
  }
}
