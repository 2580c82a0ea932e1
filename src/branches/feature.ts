import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import type { ChatMessage } from '../state/messages.js';

/** A turn that can be rerun: one with an id, or one stopped or cut off (a rerun finds its id in the transcript). */
const rerunnable = (m: ChatMessage) => !!m.id || m.state === 'stopped' || m.state === 'interrupted';

/**
 * Regenerate, edit and the version navigator: fetched as a thread loads, with the first
 * turn (while the agent thinks) or when the first message that can be rerun shows (such a
 * render waits for it a little).
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.TurnControls(ctx),
).with({
  prefetch: ['transcript', 'turn'],
  needs: rerunnable,
  wait: true,
  mount: (use) => ({ willUpdate: () => use.control?.willUpdate() }),
  places: {
    replyControls: ({ control }, m) => control?.render(m) ?? nothing,
    questionControls: ({ control }, m) => control?.render(m) ?? nothing,
    editor: ({ control }, m) => (control?.isEditing(m) ? control.renderEditor(m) : null),
  },
});
