import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

/**
 * The builder's preview (attribute `preview`): beside a reply's turn controls, and in the
 * header. Fetched once `preview` is set, without holding a render back (it is a builder's
 * tool; the conversation shows first). Without `preview` nothing is fetched; the chunk's
 * controller says what shows, and hides it all when `preview` goes.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.Preview(ctx),
).with({
  on: ({ host }) => host.preview,
  whenOn: 'fetch',
  mount: (use) => ({ willUpdate: () => use.control?.willUpdate() }),
  places: {
    title: ({ control }) => control?.render(),
    replyControls: ({ control }, m) => control?.render(m),
  },
});
