import { preview as previewChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatMessage } from '../state/messages.js';

type PreviewModule = typeof import('./index.js');

/**
 * Where the builder's preview sits (attribute `preview`; the chunk is index.ts): beside a
 * reply's turn controls, and in the header. Fetched once `preview` is set, without holding
 * a render back (it is a builder's tool; the conversation shows first). Without `preview`
 * nothing is fetched; the chunk's controller says what shows, and hides it all when
 * `preview` goes.
 */
export class PreviewSlot {
  private readonly feature: Feature<PreviewModule>;
  private control: InstanceType<PreviewModule['Preview']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(previewChunk);
  }

  willUpdate(): void {
    const module = this.feature.module;
    if (module) (this.control ??= new module.Preview(this.ctx)).willUpdate();
    else if (this.ctx.host.preview) void this.feature.want();
  }

  /** Beside the turn controls of reply `m`; without `m`, in the header after the heading (one method: the panel's bytes are counted). */
  render(m?: ChatMessage) {
    return this.control?.render(m);
  }
}
