/**
 * Dictation (attribute `voice`), a lazy chunk: the microphone button in the composer (part
 * `mic-button`) where the browser has speech recognition. Words appear in the text field as
 * they are recognised, interim ones included; nothing is sent. A click or Escape stops; a
 * denied microphone is said in the composer and announced. The recognition language is the
 * widget's. Typing or sending ends it, dropping words not yet shown.
 */
import { html, nothing, svg } from 'lit-html';
import { icon } from '../icons/icons.js';
import { type PanelContext, ViewState } from '../panel/context.js';

/** The part of the Web Speech API used here (not in TypeScript's DOM types everywhere). */
interface Recognition extends EventTarget {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionClass = new () => Recognition;

/** The browser's recogniser, looked up when needed (a page or a test may provide one late). */
export const recognizer = (): RecognitionClass | undefined => {
  const w = globalThis as { SpeechRecognition?: RecognitionClass; webkitSpeechRecognition?: RecognitionClass };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
};

/**
 * Recognised pieces one after the other: with a space between words (some recognisers start
 * a later piece with one, some do not), none between CJK or Thai characters.
 */
const NO_SPACE = /[\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
function join(before: string, after: string): string {
  if (!before || !after || NO_SPACE.test(before.at(-1)!) || NO_SPACE.test(after[0]!)) return before + after;
  return `${before} ${after}`;
}

const micIcon = icon(svg`<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>`);

export class Dictation {
  private __recognition: Recognition | null = null;
  /** The thread whose draft is being dictated. */
  private __thread: string | null = null;
  /** The draft as it was when dictation began; recognised words go after it. */
  private __base = '';
  /** The draft as dictation last set it: another draft means something else changed it. */
  private __shown = '';
  /** Words recognised for good so far. */
  private __heard = '';
  /** What the button shows: listening or not, and why dictation stopped when it failed. */
  private readonly __view: ViewState<{ listening: boolean; error: string | null }>;

  constructor(private readonly __ctx: PanelContext) {
    this.__view = new ViewState<{ listening: boolean; error: string | null }>(__ctx.host, { listening: false, error: null });
  }

  render() {
    if (!recognizer()) return nothing;
    const t = this.__ctx.text;
    const { listening, error } = this.__view.value;
    // One name; `aria-pressed` says whether it is listening (the tooltip says what a click does).
    return html`<button
        part="mic-button"
        class="icon-button mic ${listening ? 'listening' : ''}"
        type="button"
        aria-label=${t.dictate}
        title=${listening ? t.dictateStop : t.dictate}
        aria-pressed=${listening ? 'true' : 'false'}
        @click=${() => (listening ? this.stop() : this.start())}
      >
        ${micIcon}
      </button>
      ${error ? html`<p class="voice-error" role="alert">${error}</p>` : nothing}`;
  }

  start(): void {
    const Speech = recognizer();
    if (!Speech || this.__recognition) return;
    const { __ctx: ctx } = this;
    const t = ctx.text;
    const recognition = new Speech();
    recognition.lang = ctx.view.locale;
    recognition.continuous = true;
    recognition.interimResults = true;
    this.__base = this.__shown = ctx.chat.state.draft;
    this.__thread = ctx.chat.threadId;
    this.__heard = '';
    recognition.onresult = (event) => {
      if (recognition !== this.__recognition) return;
      // The widget left the page while listening: stop at the first words it hears.
      if (!ctx.host.isConnected) return this.abort();
      let interim = '';
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i]!;
        const words = result[0]!.transcript;
        if (result.isFinal) this.__heard = join(this.__heard, words);
        else interim = join(interim, words);
      }
      this.__show(join(this.__heard, interim));
    };
    recognition.onerror = ({ error }) => {
      // Silence and our own abort are not failures.
      if (error === 'no-speech' || error === 'aborted') return;
      // Shown in a role="alert" paragraph, which is announced as it appears.
      this.__view.set({ error: error === 'not-allowed' || error === 'service-not-allowed' ? t.micDenied : t.dictationFailed });
    };
    recognition.onend = () => {
      if (recognition !== this.__recognition) return;
      this.__recognition = null;
      ctx.host.removeEventListener('keydown', this.__onKeyDown, true);
      this.__view.set({ listening: false });
    };
    try {
      recognition.start();
    } catch {
      this.__view.set({ error: t.dictationFailed });
      return;
    }
    this.__recognition = recognition;
    // Escape anywhere in the widget stops dictation first (not the reply, not the launcher).
    ctx.host.addEventListener('keydown', this.__onKeyDown, true);
    this.__view.set({ listening: true, error: null });
  }

  /**
   * Before each render: listening ends, and the microphone with it, once the words could no
   * longer go where dictation began: `voice` was turned off, the launcher's panel closed, or
   * the conversation or its draft changed under it (another thread, a new conversation, a
   * message sent). A notice goes once the draft moves on.
   */
  sync(): void {
    const { host, view, chat } = this.__ctx;
    const { draft } = chat.state;
    const moved = chat.threadId !== this.__thread || draft !== this.__shown;
    if (this.__recognition && (!host.voice || (view.launcher && !host.isOpen) || moved)) this.abort();
    if (this.__view.value.error && !this.__recognition && draft !== this.__shown) this.__view.set({ error: null });
  }

  /** Stops listening; words still being recognised are added when they arrive. */
  stop(): void {
    this.__recognition?.stop();
  }

  /** Ends at once, dropping words not shown yet: the reader typed or sent. */
  abort(): void {
    const recognition = this.__recognition;
    if (!recognition) return;
    recognition.onend?.();
    recognition.abort();
  }

  private __show(spoken: string): void {
    this.__ctx.chat.setDraft((this.__shown = join(this.__base, spoken.trim())));
  }

  private readonly __onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.__recognition) return;
    event.stopPropagation();
    this.stop();
  };
}
