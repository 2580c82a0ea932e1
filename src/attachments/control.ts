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
  private readonly drag: ViewState<{ over: boolean }>;
  private dragDepth = 0;

  constructor(
    private readonly ctx: PanelContext,
    private readonly upload: () => Upload | undefined,
  ) {
    const { host } = ctx;
    this.attachments = new Attachments(host);
    this.drag = new ViewState(host, { over: false });
    // Drag events from inside the shadow root are composed; the host sees them all.
    host.addEventListener('dragenter', (event) => this.onDragEnter(event));
    host.addEventListener('dragover', (event) => this.onDragOver(event));
    host.addEventListener('dragleave', () => this.onDragLeave());
    host.addEventListener('drop', (event) => this.onDrop(event));
  }

  renderControl() {
    if (!this.upload()) return nothing;
    return renderAttachControl(this.ctx.text, {
      disabled: this.attachments.uploading,
      onPick: () => this.ctx.host.renderRoot.querySelector<HTMLInputElement>('.file-input')?.click(),
      onChange: (event) => this.onFileChange(event),
    });
  }

  renderPreview() {
    if (!this.upload()) return nothing;
    const { attachments } = this;
    const t = this.ctx.text;
    return html`${renderAttachment(t, attachments, {
      onRemove: () => {
        attachments.clear();
        this.ctx.focusInput();
      },
      onDismissError: () => attachments.dismissError(),
    })}${this.dropping ? renderDropHint(t) : nothing}`;
  }

  private onFileChange(event: Event): void {
    const field = event.target as HTMLInputElement;
    const file = firstFile(field.files);
    // Cleared so that picking the same file again fires `change` again.
    field.value = '';
    if (file) this.attachments.attach(file);
  }

  onPaste(event: ClipboardEvent): void {
    if (!this.upload()) return;
    const data = event.clipboardData;
    const file = firstFile(data?.files);
    if (!file?.type.startsWith('image/')) return;
    // Clipboards from documents carry the text too: let that paste as usual.
    if (!data?.types.includes('text/plain')) event.preventDefault();
    this.attachments.attach(file);
  }

  private acceptsDrop(event: DragEvent): boolean {
    const { view, host } = this.ctx;
    if (!this.upload() || (view.launcher && !host.isOpen)) return false;
    return Array.from(event.dataTransfer?.types ?? []).includes('Files');
  }

  get dropping(): boolean {
    return this.drag.value.over;
  }

  private setDropping(over: boolean): void {
    if (over !== this.dropping) this.drag.set({ over });
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
    const file = firstFile(event.dataTransfer?.files);
    if (file) this.attachments.attach(file);
  }

  /**
   * Uploads through the host's function, then sends with the URL as `image_url`. A failed
   * upload keeps text and attachment for a retry; the attachment goes once the message is in
   * the log (the host may still cancel `agent-chat-send`, which keeps it).
   */
  async send(readText: () => string): Promise<void> {
    const { chat } = this.ctx;
    const { attachments } = this;
    const upload = this.upload();
    // Not uploaded before the disclaimer is accepted either: the image stays attached. While
    // the conversation loads it is: the send waits for the load, as Enter's without an image.
    if (chat.replying || attachments.uploading || this.ctx.sendHeld()) return;
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
      await this.ctx.send(readText(), { imageUrl: url });
    } finally {
      unsubscribe();
    }
  }
}
