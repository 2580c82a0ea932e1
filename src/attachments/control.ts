import { html, nothing } from 'lit-html';
import { type PanelContext, ViewState } from '../panel/context.js';
import { Attachments, firstFile } from './state.js';
import { renderAttachControl, renderAttachment, renderDropHint } from './templates.js';

type Upload = (file: File) => Promise<string>;

/**
 * Images in the composer, once this chunk is here (the composer fetches it when
 * `uploadImage` is set): the picker, a paste, a drop on the panel, and sending with the
 * uploaded image's URL.
 */
export class AttachmentsControl {
  readonly attachments: Attachments;
  /** An image is being dragged over the panel. */
  private readonly __drag: ViewState<{ over: boolean }>;
  private __dragDepth = 0;

  constructor(
    private readonly __ctx: PanelContext,
    private readonly __upload: () => Upload | undefined,
  ) {
    const { host } = __ctx;
    this.attachments = new Attachments(host);
    this.__drag = new ViewState(host, { over: false });
    // Drag events from inside the shadow root are composed; the host sees them all.
    host.addEventListener('dragenter', (event) => this.__onDragEnter(event));
    host.addEventListener('dragover', (event) => this.__onDragOver(event));
    host.addEventListener('dragleave', () => this.__onDragLeave());
    host.addEventListener('drop', (event) => this.__onDrop(event));
  }

  renderControl() {
    if (!this.__upload()) return nothing;
    return renderAttachControl(this.__ctx.text, {
      disabled: this.attachments.uploading,
      onPick: () => this.__ctx.host.renderRoot.querySelector<HTMLInputElement>('.file-input')?.click(),
      onChange: (event) => this.__onFileChange(event),
    });
  }

  renderPreview() {
    if (!this.__upload()) return nothing;
    const { attachments } = this;
    const t = this.__ctx.text;
    return html`${renderAttachment(t, attachments, {
      onRemove: () => {
        attachments.clear();
        this.__ctx.focusInput();
      },
      onDismissError: () => attachments.dismissError(),
    })}${this.dropping ? renderDropHint(t) : nothing}`;
  }

  private __onFileChange(event: Event): void {
    const field = event.target as HTMLInputElement;
    const file = firstFile(field.files);
    // Cleared so that picking the same file again fires `change` again.
    field.value = '';
    if (file) this.attachments.attach(file);
  }

  onPaste(event: ClipboardEvent): void {
    if (!this.__upload()) return;
    const data = event.clipboardData;
    const file = firstFile(data?.files);
    if (!file?.type.startsWith('image/')) return;
    // Clipboards from documents carry the text too: let that paste as usual.
    if (!data?.types.includes('text/plain')) event.preventDefault();
    this.attachments.attach(file);
  }

  private __acceptsDrop(event: DragEvent): boolean {
    const { view, host } = this.__ctx;
    if (!this.__upload() || (view.launcher && !host.isOpen)) return false;
    return Array.from(event.dataTransfer?.types ?? []).includes('Files');
  }

  get dropping(): boolean {
    return this.__drag.value.over;
  }

  private __setDropping(over: boolean): void {
    if (over !== this.dropping) this.__drag.set({ over });
  }

  private __onDragEnter(event: DragEvent): void {
    if (!this.__acceptsDrop(event)) return;
    event.preventDefault();
    // enter/leave fire for every element crossed; the depth tells when the pointer has left.
    this.__dragDepth++;
    this.__setDropping(true);
  }

  private __onDragOver(event: DragEvent): void {
    if (!this.__acceptsDrop(event)) return;
    // Without preventDefault here the browser refuses the drop (and may open the file).
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
    this.__setDropping(true);
  }

  private __onDragLeave(): void {
    if (!this.dropping) return;
    this.__dragDepth = Math.max(0, this.__dragDepth - 1);
    if (!this.__dragDepth) this.__setDropping(false);
  }

  private __onDrop(event: DragEvent): void {
    this.__dragDepth = 0;
    this.__setDropping(false);
    if (!this.__acceptsDrop(event)) return;
    event.preventDefault();
    const file = firstFile(event.dataTransfer?.files);
    if (file) this.attachments.attach(file);
  }

  /**
   * Uploads through the host's function, then sends with the URL as `image_url`. A failed
   * upload keeps text and attachment for a retry; the attachment goes once the message is in
   * the log (the host may still cancel `agent-chat-send`, which keeps it).
   */
  async send(readText: () => string): Promise<void> {
    const { chat } = this.__ctx;
    const { attachments } = this;
    const upload = this.__upload();
    // Not uploaded before the disclaimer is accepted either: the image stays attached. While
    // the conversation loads it is: the send waits for the load, as Enter's without an image.
    if (chat.replying || attachments.uploading || this.__ctx.sendHeld()) return;
    if (!upload) {
      attachments.clear();
      return;
    }
    const url = await attachments.upload(upload);
    if (!url) return;
    // The attachment goes as its message joins the log: at once, or once a load under way has
    // ended (the send resolves only when the turn has).
    const unsubscribe = chat.store.subscribe((_, change) => {
      if (change !== 'appendUser') return;
      unsubscribe();
      attachments.clear();
    });
    try {
      // Read after the upload: the user may have kept typing meanwhile.
      await this.__ctx.send(readText(), { imageUrl: url });
    } finally {
      unsubscribe();
    }
  }
}
