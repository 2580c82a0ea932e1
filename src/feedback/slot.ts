import { nothing } from 'lit-html';
import { feedback as feedbackChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatHost } from '../shell/panel-api.js';
import type { PropertyValues } from '../shell/host.js';
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';

type FeedbackModule = typeof import('./index.js');

/** A finished reply the service named: it can be rated. */
const rateable = (m: ChatMessage) => m.role === 'agent' && m.state === 'done' && !!m.id;

/**
 * Where the thumbs sit under a reply (attribute `feedback`; the chunk is index.ts): fetched
 * when `feedback` is set and a rateable reply shows, and such a render waits for it a
 * little. Without `feedback` nothing is fetched or shown.
 */
export class FeedbackSlot {
  private readonly feature: Feature<FeedbackModule>;
  private control: InstanceType<FeedbackModule['FeedbackControl']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(feedbackChunk);
  }

  sync(state: ConversationState): void {
    if (this.ctx.host.feedback && !this.feature.module && state.messages.some(rateable)) void this.feature.want(true);
  }

  willUpdate(changed: PropertyValues<ChatHost>): void {
    if (changed.has('feedback')) this.sync(this.ctx.chat.state);
    const module = this.feature.module;
    if (module && this.ctx.host.feedback) this.control ??= new module.FeedbackControl(this.ctx);
    this.control?.willUpdate();
  }

  render(m: ChatMessage) {
    return this.control && this.ctx.host.feedback && rateable(m) ? this.control.render(m) : nothing;
  }

  reason(m: ChatMessage) {
    return this.control && this.ctx.host.feedback && rateable(m) ? this.control.renderReason(m) : nothing;
  }
}
