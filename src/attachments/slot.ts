import { nothing } from 'lit-html';
import { attachments as attachmentsChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatHost } from '../shell/panel-api.js';
import type { PropertyValues } from '../shell/host.js';
import { hook, reported } from '../state/config.js';
import { warnOnce } from '../warn.js';

type AttachmentsModule = typeof import('./index.js');
type Upload = (file: File) => Promise<string>;

/**
 * Where image input sits in the composer (the chunk is index.ts): `uploadImage` checked,
 * and the chunk fetched once it is a function (the render that offers it waits for it a
 * little). The picker, paste, drop and sending with an image are in the chunk (control.ts).
 */
export class AttachmentsSlot {
  private readonly feature: Feature<AttachmentsModule>;
  /** The control, once the chunk is here and `uploadImage` was set. */
  control: InstanceType<AttachmentsModule['AttachmentsControl']> | null = null;
  /** `uploadImage` when it is a function. */
  private upload: Upload | undefined;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(attachmentsChunk);
    this.want();
  }

  willUpdate(changed: PropertyValues<ChatHost>): void {
    // Checked here; a bad one warns once and images are not offered.
    if (changed.has('uploadImage')) {
      this.upload = reported((problems) => hook<Upload>('uploadImage', this.ctx.host.uploadImage, problems));
      this.want();
    }
    const module = this.feature.module;
    if (module && this.upload) this.control ??= new module.AttachmentsControl(this.ctx, () => this.upload);
  }

  renderPreview() {
    return this.control?.renderPreview() ?? nothing;
  }

  renderControl() {
    return this.control?.renderControl() ?? nothing;
  }

  private want(): void {
    if (this.feature.module || typeof this.ctx.host.uploadImage !== 'function') return;
    void this.feature.want(true).then((module) => module || warnOnce('the image input could not be loaded; images cannot be attached.'));
  }
}
