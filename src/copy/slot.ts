import { nothing } from 'lit-html';
import { copy as copyChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import { type ChatMessage, finished } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';

type CopyModule = typeof import('./index.js');

/**
 * Where the copy button sits under a reply (the chunk is index.ts): fetched as a thread
 * loads or a turn starts, or when the first finished reply shows, and such a render waits
 * for it a little, so the button does not appear a moment after the reply.
 */
export class CopySlot {
  private readonly feature: Feature<CopyModule>;
  private control: InstanceType<CopyModule['CopyReply']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(copyChunk);
  }

  /** A turn starts: fetched while the agent thinks, so the finished reply does not wait for it. */
  prefetch(): void {
    void this.feature.want();
  }

  sync(state: ConversationState): void {
    if (!this.feature.module && state.messages.some(finished)) void this.feature.want(true);
  }

  render(m: ChatMessage) {
    const module = this.feature.module;
    if (!module || !finished(m)) return nothing;
    return (this.control ??= new module.CopyReply(this.ctx)).render(m);
  }
}
