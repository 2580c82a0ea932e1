import { html, nothing } from 'lit-html';
import { live } from '../live.js';
import type { feature as attachmentsFeature } from '../attachments/feature.js';
import { recall } from '../chunks.js';
import { lexer as lexerChunk } from '../markdown/chunks.js';
import { icons } from '../icons/icons.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import { offline } from '../state/online.js';
import type { UseOf } from '../panel/spec.js';
import type { feature as voiceFeature } from '../voice/feature.js';

/**
 * The composer: the draft (kept by the conversation's store so no failure can lose it),
 * Enter to send, the send/stop button; images (picker, paste, drop) and dictation come
 * with their own chunks when `uploadImage` or `voice` is set (features of the registry,
 * handed in by the panel), and so does
 * ArrowUp's recall of the questions sent (src/recall/) once the field takes focus.
 */
type Attachments = UseOf<typeof attachmentsFeature>;
type Voice = UseOf<typeof voiceFeature>;

export class Composer {
  /** The markdown lexer, fetched when the field takes focus (a failure is the panel's to say, when a text needs it). */
  private readonly __lexer: Feature<typeof import('../markdown/lex.js')>;
  /** The text's length when the field was last fitted to it. */
  private __fitted = 0;

  constructor(
    private readonly __ctx: PanelContext,
    private readonly __images: Attachments,
    private readonly __voice: Voice,
  ) {
    this.__lexer = __ctx.feature(lexerChunk, true);
  }

  get input(): HTMLTextAreaElement | null {
    return this.__ctx.host.renderRoot.querySelector('textarea[part="input"]');
  }

  render() {
    const { chat, host } = this.__ctx;
    const t = this.__ctx.text;
    // Stop while a reply is under way; while the conversation loads, Send (it waits for the load).
    const busy = chat.replying;
    const { draft } = chat.state;
    const images = this.__images.control;
    const attachments = images?.attachments;
    return html`<form part="composer" class=${images?.dropping ? 'dropping' : nothing} @submit=${this.__onSubmit}>
      ${this.__images.render('composerStart')}
      <textarea
        part="input"
        rows="1"
        .value=${live(draft)}
        placeholder=${host.placeholder || t.placeholder}
        aria-label=${t.inputLabel}
        @focus=${this.__onFocus}
        @input=${this.__onInput}
        @keydown=${this.__onKeyDown}
        @paste=${this.__onPaste}
      ></textarea>
      ${this.__voice.render('composerEnd')}
      ${
        busy
          ? html`<button part="stop-button" class="stop" type="button" aria-label=${t.stop} title=${t.stop} @click=${() => chat.stop()}>
            ${icons.stop}
          </button>`
          : html`<button part="send-button" class="send" type="submit" aria-label=${t.send} title=${t.send} ?disabled=${!(draft.trim() || attachments?.file) || !!attachments?.uploading}>
            ${icons.send}
          </button>`
      }
    </form>`;
  }

  // Listeners are arrow functions: lit-html calls them with the element as `this`.
  private readonly __onSubmit = (event: Event): void => {
    event.preventDefault();
    this.__voice.api.abort();
    const read = () => this.input?.value ?? this.__ctx.chat.state.draft;
    const images = this.__images.control;
    if (images?.attachments.file) {
      void images.send(read);
      return;
    }
    const text = read();
    if (!text.trim()) return;
    void this.__ctx.send(text);
  };

  private readonly __onFocus = (): void => {
    this.__ctx.chat.prefetchTurn();
    // What the question and its reply are drawn with, unless they are prose (not offline: a
    // failed fetch would hold the next try back).
    if (!offline()) void this.__lexer.want();
    recall().catch(() => undefined);
  };

  private readonly __onInput = (event: Event): void => {
    const area = event.target as HTMLTextAreaElement;
    // Typing means the reader has moved on; do not pull focus out of the field later.
    this.__ctx.focusKeeper.forget();
    this.__voice.api.abort();
    this.__ctx.chat.setDraft(area.value);
    this.__fit(area);
  };

  /**
   * Grows the field with its text up to the CSS max-height (CSSOM, so strict CSP allows it),
   * and shrinks it when text goes. Measured only then: making the field's height `auto` to
   * measure it lays out the panel around it, the log with every message included, and a
   * keystroke that stays on its line needs none of that.
   */
  private __fit(area: HTMLTextAreaElement): void {
    const length = area.value.length;
    const shrank = length < this.__fitted;
    this.__fitted = length;
    if (!shrank && area.scrollHeight <= area.clientHeight) return;
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + 2}px`;
  }

  private readonly __onKeyDown = (event: KeyboardEvent): void => {
    // Enter sends, Shift+Enter adds a line; an IME composition's Enter is not ours. It does
    // what Send does, also while the conversation loads (the send waits for the load).
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!this.__ctx.chat.replying) this.__onSubmit(event);
    } else if (recall.module?.recall(event, this.__ctx.chat)) this.__onInput(event);
  };

  private readonly __onPaste = (event: ClipboardEvent): void => this.__images.control?.onPaste(event);
}
