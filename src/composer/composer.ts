import { html, nothing } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { icons } from '../icons/icons.js';
import { Feature, lazy } from '../lazy.js';
import type { PanelContext } from '../panel/context.js';
import { hook } from '../state/config.js';
import { warnOnce } from '../warn.js';

/** Image input (src/attachments/), fetched once `uploadImage` is set. */
const loadAttachments = lazy(() => import('../attachments/index.js'));

type Upload = (file: File) => Promise<string>;

/**
 * The composer: the draft (kept by the conversation so no failure loses it), Enter to
 * send, the send/stop button, and images attached by the picker, a paste or a drop.
 */
export class Composer {
  private readonly attach: Feature<typeof import('../attachments/index.js')>;
  private attachments: import('../attachments/index.js').Attachments | null = null;
  /** `uploadImage` when it is a function. */
  private upload: Upload | undefined;
  /** An image is being dragged over the panel. */
  private dropping = false;
  private dragDepth = 0;

  constructor(private readonly ctx: PanelContext) {
    const { host } = ctx;
    this.attach = new Feature(loadAttachments, host);
    // Drag events from inside the shadow root are composed; the host sees them all.
    host.addEventListener('dragenter', (event) => this.onDragEnter(event));
    host.addEventListener('dragover', (event) => this.onDragOver(event));
    host.addEventListener('dragleave', () => this.onDragLeave());
    host.addEventListener('drop', (event) => this.onDrop(event));
  }

  get input(): HTMLTextAreaElement | null {
    return this.ctx.host.renderRoot.querySelector('textarea[part="input"]');
  }

  /** `uploadImage` changed: checked here; a bad one warns once and images are not offered. */
  setUpload(value: unknown): void {
    const problems: string[] = [];
    this.upload = hook<Upload>('uploadImage', value, problems);
    problems.forEach((problem) => warnOnce(problem));
  }

  needs(): Array<Promise<unknown>> {
    // `uploadImage` itself: `upload` is only checked in willUpdate, after this.
    if (typeof this.ctx.host.uploadImage !== 'function' || this.attachments || this.attach.failed) return [];
    return [
      this.attach.ensure().then((module) => {
        if (module) this.attachments ??= new module.Attachments(this.ctx.host);
        else warnOnce('the image input could not be loaded; images cannot be attached.');
      }),
    ];
  }

  render() {
    const { chat, host } = this.ctx;
    const t = this.ctx.text;
    const busy = chat.busy;
    return html`<form part="composer" class=${this.dropping ? 'dropping' : nothing} @submit=${this.onSubmit}>
      ${this.renderAttachment()} ${this.renderAttachControl()}
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
      ${busy
        ? html`<button part="stop-button" class="stop" type="button" aria-label=${t.stop} title=${t.stop} @click=${() => chat.stop()}>
            ${icons.stop}
          </button>`
        : html`<button part="send-button" class="send" type="submit" aria-label=${t.send} title=${t.send} ?disabled=${!(chat.draft.trim() || this.attachments?.file) || !!this.attachments?.uploading}>
            ${icons.send}
          </button>`}
    </form>`;
  }

  private renderAttachControl() {
    const attach = this.attach.module;
    if (!this.upload || !attach || !this.attachments) return nothing;
    return attach.renderAttachControl(this.ctx.text, {
      disabled: this.attachments.uploading,
      onPick: () => this.ctx.host.renderRoot.querySelector<HTMLInputElement>('.file-input')?.click(),
      onChange: (event) => this.onFileChange(event),
    });
  }

  private renderAttachment() {
    const attach = this.attach.module;
    const attachments = this.attachments;
    if (!this.upload || !attach || !attachments) return nothing;
    const t = this.ctx.text;
    return html`${attach.renderAttachment(t, attachments, {
      onRemove: () => this.removeAttachment(),
      onDismissError: () => attachments.dismissError(),
    })}${this.dropping ? attach.renderDropHint(t) : nothing}`;
  }

  // Listeners are arrow functions: lit-html calls them with the element as `this`.
  private readonly onSubmit = (event: Event): void => {
    event.preventDefault();
    const text = this.input?.value ?? this.ctx.chat.draft;
    if (this.attachments?.file) {
      void this.sendWithAttachment();
      return;
    }
    if (!text.trim()) return;
    void this.ctx.send(text);
  };

  private readonly onFocus = (): void => this.ctx.chat.prefetchTurn();

  private readonly onInput = (event: Event): void => {
    const area = event.target as HTMLTextAreaElement;
    // Typing means the reader has moved on; do not pull focus out of the field later.
    this.ctx.focusKeeper.forget();
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

  private removeAttachment(): void {
    this.attachments?.clear();
    this.ctx.focusInput();
  }

  private onFileChange(event: Event): void {
    const field = event.target as HTMLInputElement;
    const file = this.attach.module?.firstFile(field.files);
    // Cleared so that picking the same file again fires `change` again.
    field.value = '';
    if (file) this.attachments?.attach(file);
  }

  private readonly onPaste = (event: ClipboardEvent): void => {
    const attach = this.attach.module;
    if (!this.upload || !attach) return;
    const data = event.clipboardData;
    const file = attach.firstFile(data?.files);
    if (!file?.type.startsWith('image/')) return;
    // Clipboards from documents carry the text too: let that paste as usual.
    if (!data?.types.includes('text/plain')) event.preventDefault();
    this.attachments?.attach(file);
  };

  private acceptsDrop(event: DragEvent): boolean {
    const { view, host } = this.ctx;
    if (!this.upload || !this.attachments || (view.launcher && !host.isOpen)) return false;
    return Array.from(event.dataTransfer?.types ?? []).includes('Files');
  }

  private setDropping(dropping: boolean): void {
    if (dropping === this.dropping) return;
    this.dropping = dropping;
    this.ctx.host.requestUpdate();
  }

  private onDragEnter(event: DragEvent): void {
    if (!this.acceptsDrop(event)) return;
    event.preventDefault();
    // enter/leave fire for every element crossed; the depth tells when the pointer has left.
    this.dragDepth++;
    this.setDropping(true);
  }

  private onDragOver(event: DragEvent): void {
    if (!this.acceptsDrop(event)) return;
    // Without preventDefault here the browser refuses the drop (and may open the file).
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
    this.setDropping(true);
  }

  private onDragLeave(): void {
    if (!this.dropping) return;
    this.dragDepth = Math.max(0, this.dragDepth - 1);
    if (!this.dragDepth) this.setDropping(false);
  }

  private onDrop(event: DragEvent): void {
    this.dragDepth = 0;
    this.setDropping(false);
    if (!this.acceptsDrop(event)) return;
    event.preventDefault();
    const file = this.attach.module?.firstFile(event.dataTransfer?.files);
    if (file) this.attachments?.attach(file);
  }

  /**
   * Uploads through the host's function, then sends with the URL as `image_url`. A failed
   * upload keeps text and attachment for a retry; the attachment goes once the message is in
   * the log (the host may still cancel `agent-chat-send`, which keeps it).
   */
  private async sendWithAttachment(): Promise<void> {
    const { chat } = this.ctx;
    const upload = this.upload;
    const attachments = this.attachments;
    if (!attachments || chat.busy || attachments.uploading) return;
    if (!upload) {
      attachments.clear();
      return;
    }
    const url = await attachments.upload(upload);
    if (!url) return;
    // Read after the upload: the user may have kept typing meanwhile.
    const text = this.input?.value ?? chat.draft;
    const before = chat.messages.length;
    const sent = this.ctx.send(text, { imageUrl: url });
    if (chat.messages.length > before) attachments.clear();
    await sent;
  }
}
