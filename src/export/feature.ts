import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

/**
 * Saving the conversation: the header's button, fetched as a thread loads (beside its
 * transcript) or with the first message, not waited for (the button can come a moment
 * after the messages it saves); and `exportTranscript()`, which fetches it when called first.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.Exporter(ctx),
).with({
  prefetch: ['transcript'],
  needs: () => true,
  mount: (use) => ({
    /** The conversation as a document; null when the export's code could not be fetched (the element says so). */
    async transcript(format: unknown): Promise<string | null> {
      await use.want();
      return use.make()?.transcript(format) ?? null;
    },
  }),
  places: {
    headerButtons: ({ control }) => control?.renderButton() ?? nothing,
  },
});
