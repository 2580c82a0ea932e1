import { html, nothing } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { icons } from '../icons/icons.js';
import { lazy } from '../lazy.js';
import { Feature } from '../panel/feature.js';
import type { PanelContext } from '../panel/context.js';
import { hook, reported } from '../state/config.js';
import { warnOnce } from '../warn.js';

/** Image input (src/attachments/), fetched once `uploadImage` is set. */
const loadAttachments = lazy(() => import('../attachments/index.js'));
/** Dictation (src/voice/), fetched with `voice` where the browser recognises speech. */
const loadVoice = lazy(() => import('../voice/index.js'));
const canDictate = () => 'SpeechRecognition' in globalThis || 'webkitSpeechRecognition' in globalThis;

type Upload = (file: File) => Promise<string>;

/**
 * The composer: the draft (kept by the conversation so no failure loses it), Enter to
 * send, the send/stop button; images (picker, paste, drop) come with the attachments chunk
 * when `uploadImage` is set (src/attachments/control.ts).
 */
export class Composer {
  private readonly attach: Feature<typeof import('../attachments/index.js')>;
  private images: import('../attachments/index.js').AttachmentsControl | null = null;
  /** `uploadImage` when it is a function. */
  private upload: Upload | undefined;
  private readonly voice: Feature<typeof import('../voice/index.js')>;
  private dictation: import('../voice/index.js').Dictation | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.attach = new Feature(loadAttachments, ctx.host);
    this.voice = new Feature(loadVoice, ctx.host);
  }

  get input(): HTMLTextAreaElement | null {
    return this.ctx.host.renderRoot.querySelector('textarea[part="input"]');
  }

  /** `uploadImage` changed: checked here; a bad one warns once and images are not offered. */
  setUpload(value: unknown): void {
    this.upload = reported((problems) => hook<Upload>('uploadImage', value, problems));
  }

  needs(): Array<Promise<unknown>> {
    const needs: Array<Promise<unknown>> = [];
    const { host } = this.ctx;
    if (host.voice && !this.dictation && !this.voice.failed && canDictate()) {
      needs.push(this.voice.ensure().then((module) => module && (this.dictation ??= new module.Dictation(this.ctx))));
    }
    // `uploadImage` itself: `upload` is only checked in willUpdate, after this.
    if (typeof host.uploadImage !== 'function' || this.images || this.attach.failed) return needs;
    needs.push(
      this.attach.ensure().then((module) => {
        if (module) this.images ??= new module.AttachmentsControl(this.ctx, () => this.upload);
        else warnOnce('the image input could not be loaded; images cannot be attached.');
      }),
    );
    return needs;
  }

  /** Dictation ends when it can no longer be heard into this draft (src/voice/dictation.ts). */
  willUpdate(): void {
    this.dictation?.sync();
  }

  render() {
    const { chat, host } = this.ctx;
    const t = this.ctx.text;
    const busy = chat.busy;
    const images = this.images;
    const attachments = images?.attachments;
    return html`<form part="composer" class=${images?.dropping ? 'dropping' : nothing} @submit=${this.onSubmit}>
      ${images?.renderPreview() ?? nothing} ${images?.renderControl() ?? nothing}
      <textarea
        part="input"
        rows="1"
        .value=${live(chat.draft)}
        placeholder=${host.placeholder || t.placeholder}
        aria-label=${t.inputLabel}
        @focus=${this.onFocus}
        @input=${this.onInput}
        @keydown=${this.onKeyDown}
        @paste=${this.onPaste}
      ></textarea>
      ${host.voice ? (this.dictation?.render() ?? nothing) : nothing}
      ${
        busy
          ? html`<button part="stop-button" class="stop" type="button" aria-label=${t.stop} title=${t.stop} @click=${() => chat.stop()}>
            ${icons.stop}
          </button>`
          : html`<button part="send-button" class="send" type="submit" aria-label=${t.send} title=${t.send} ?disabled=${!(chat.draft.trim() || attachments?.file) || !!attachments?.uploading}>
            ${icons.send}
          </button>`
      }
    </form>`;
  }

  // Listeners are arrow functions: lit-html calls them with the element as `this`.
  private readonly onSubmit = (event: Event): void => {
    event.preventDefault();
    this.dictation?.abort();
    const read = () => this.input?.value ?? this.ctx.chat.draft;
    if (this.images?.attachments.file) {
      void this.images.send(read);
      return;
    }
    const text = read();
    if (!text.trim()) return;
    void this.ctx.send(text);
  };

  private readonly onFocus = (): void => this.ctx.chat.prefetchTurn();

  private readonly onInput = (event: Event): void => {
    const area = event.target as HTMLTextAreaElement;
    // Typing means the reader has moved on; do not pull focus out of the field later.
    this.ctx.focusKeeper.forget();
    this.dictation?.abort();
    this.ctx.chat.setDraft(area.value);
    // Grows the field with its text up to the CSS max-height (CSSOM, so strict CSP allows it).
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + 2}px`;
    this.ctx.host.requestUpdate();
  };

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    // Enter sends, Shift+Enter adds a line; an IME composition's Enter is not ours.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!this.ctx.chat.busy) this.onSubmit(event);
    }
  };

  private readonly onPaste = (event: ClipboardEvent): void => this.images?.onPaste(event);
}
