import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

const canDictate = () => 'SpeechRecognition' in globalThis || 'webkitSpeechRecognition' in globalThis;

/**
 * The dictation button in the composer (attribute `voice`): fetched when `voice` is set and
 * the browser recognises speech (not in Firefox), the render that offers it waiting for it
 * a little. Before each render, dictation ends where it can no longer be heard.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.Dictation(ctx),
).with({
  on: ({ host }) => host.voice && canDictate(),
  whenOn: 'wait',
  mount: (use) => ({
    willUpdate: () => use.control?.sync(),
    /** The reader typed or sent: dictation ends at once. */
    abort: () => use.control?.abort(),
  }),
  places: {
    composerEnd: ({ control, ctx }) => (ctx.host.voice ? (control?.render() ?? nothing) : nothing),
  },
});
