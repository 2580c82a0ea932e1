import { nothing } from 'lit-html';
import { plain, readAloud as readAloudChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import { type ChatMessage, finished } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';

type ReadAloudModule = typeof import('./index.js');

/**
 * Where the read-aloud button sits under a reply (attribute `read-aloud`; the chunk is
 * index.ts): fetched when `read-aloud` is set, the browser speaks (`speechSynthesis`) and a
 * finished reply shows, and such a render waits for it a little.
 */
export class ReadAloudSlot {
  private readonly feature: Feature<ReadAloudModule>;
  private control: InstanceType<ReadAloudModule['ReadAloud']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(readAloudChunk);
  }

  sync(state: ConversationState): void {
    if (this.ctx.host.readAloud && globalThis.speechSynthesis && !this.feature.module && state.messages.some(finished))
      void this.feature.want(true);
  }

  /** Before each render: the setting followed, and reading stopped where it can no longer be followed. */
  willUpdate(): void {
    const module = this.feature.module;
    if (module) this.control ??= new module.ReadAloud(this.ctx, plain);
    else this.sync(this.ctx.chat.state);
    this.control?.sync();
  }

  render(m: ChatMessage) {
    return this.control && this.ctx.host.readAloud && finished(m) ? this.control.render(m) : nothing;
  }
}
