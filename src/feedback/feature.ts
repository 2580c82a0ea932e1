import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import type { ChatMessage } from '../state/messages.js';

/** A finished reply the service named: it can be rated. */
const rateable = (m: ChatMessage) => m.role === 'agent' && m.state === 'done' && !!m.id;

/**
 * The thumbs under a reply (attribute `feedback`), and the reason form a thumbs-down opens:
 * fetched when `feedback` is set and a rateable reply shows, and such a render waits for it
 * a little. Without `feedback` nothing is fetched or shown.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.FeedbackControl(ctx),
).with({
  on: ({ host }) => host.feedback,
  needs: rateable,
  wait: true,
  mount: (use) => ({ willUpdate: () => use.control?.willUpdate() }),
  places: {
    replyControls: ({ control, ctx }, m) => (control && ctx.host.feedback && rateable(m) ? control.render(m) : nothing),
    belowControls: ({ control, ctx }, m) => (control && ctx.host.feedback && rateable(m) ? control.renderReason(m) : nothing),
  },
});
