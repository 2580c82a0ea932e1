import { nothing } from 'lit-html';
import { plain } from '../chunks.js';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import { finished } from '../state/messages.js';

/**
 * The read-aloud button under a finished reply (attribute `read-aloud`): fetched when it is
 * set, the browser speaks (`speechSynthesis`) and a finished reply shows, and such a render
 * waits for it a little. Before each render, reading stops where it can no longer be followed.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.ReadAloud(ctx, plain),
).with({
  on: ({ host }) => host.readAloud && !!globalThis.speechSynthesis,
  needs: finished,
  wait: true,
  mount: (use) => ({ willUpdate: () => use.control?.sync() }),
  places: {
    replyControls: ({ control, ctx }, m) => (control && ctx.host.readAloud && finished(m) ? control.render(m) : nothing),
  },
});
