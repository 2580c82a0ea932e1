import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { reported, text as textSetting } from '../state/config.js';

/**
 * The WhatsApp/SMS hand-off: `channels` checked, and the chunk fetched when there are any
 * (the render that offers them waits for it a little). Everything else is in the chunk
 * (controller.ts): the header's button and the form under the header.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.HandOffControl(ctx),
).with({
  on: ({ host }) => typeof host.channels === 'string' && !!host.channels.trim(),
  whenOn: 'wait',
  failure: 'the WhatsApp/SMS hand-off could not be loaded.',
  mount: (use) => {
    /** `channels` checked: the attribute's text (a bad value warns once and offers none). */
    let channels = '';
    return {
      willUpdate(changed: PropertyValues<ChatHost>): void {
        if (changed.has('channels')) channels = reported((problems) => textSetting('channels', use.ctx.host.channels, problems));
        use.control?.setChannels(channels);
      },
    };
  },
  places: {
    headerButtons: ({ control }) => control?.renderButton() ?? nothing,
    aboveLog: ({ control }) => control?.renderForm() ?? nothing,
  },
});
