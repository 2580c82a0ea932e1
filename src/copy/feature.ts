import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import { finished } from '../state/messages.js';

/**
 * The copy button under a finished reply: fetched as a thread loads or a turn starts, or
 * when the first finished reply shows, and such a render waits for it a little, so the
 * button does not appear a moment after the reply.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.CopyReply(ctx),
).with({
  prefetch: ['transcript', 'turn'],
  needs: finished,
  wait: true,
  places: {
    replyControls: ({ control }, m) => (control && finished(m) ? control.render(m) : nothing),
  },
});
