import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { hook, reported } from '../state/config.js';

type Upload = (file: File) => Promise<string>;

/**
 * Image input in the composer: `uploadImage` checked, and the chunk fetched once it is a
 * function (the render that offers it waits for it a little). The picker, paste, drop and
 * sending with an image are in the chunk (control.ts).
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  // Offered only while `uploadImage` is a function (`on`); read as an upload starts.
  (module, ctx) =>
    new module.AttachmentsControl(ctx, () => (typeof ctx.host.uploadImage === 'function' ? ctx.host.uploadImage : undefined)),
).with({
  on: ({ host }) => typeof host.uploadImage === 'function',
  whenOn: 'wait',
  failure: 'the image input could not be loaded; images cannot be attached.',
  mount: ({ ctx }) => ({
    willUpdate(changed: PropertyValues<ChatHost>): void {
      // Checked when set: a bad one warns once, and images are not offered.
      if (changed.has('uploadImage')) reported((problems) => hook<Upload>('uploadImage', ctx.host.uploadImage, problems));
    },
  }),
  places: {
    composerStart: ({ control }) => (control ? [control.renderPreview(), control.renderControl()] : nothing),
  },
});
