import { nothing } from 'lit-html';
import { transcript as transcriptChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ConversationState } from '../state/store.js';

type ExportModule = typeof import('./index.js');

/**
 * Where saving the conversation sits before its chunk (index.ts) arrives: the header's
 * button, fetched as a thread loads (beside its transcript) or with the first message,
 * and `exportTranscript()`, which fetches it when called first.
 */
export class ExportSlot {
  private readonly feature: Feature<ExportModule>;
  private control: InstanceType<ExportModule['Exporter']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(transcriptChunk);
  }

  /** A thread is loading: fetched beside its transcript, so the button shows with it. */
  prefetch(): void {
    void this.feature.want();
  }

  sync(state: ConversationState): void {
    // Not waited for: the save button can come a moment after the messages it saves.
    if (!this.feature.module && state.messages.length) void this.feature.want();
  }

  /** The conversation as a document; null when the export's code could not be fetched (the element says so). */
  async transcript(format: unknown): Promise<string | null> {
    const module = await this.feature.want();
    return module && this.use(module).transcript(format);
  }

  renderButton() {
    const module = this.feature.module;
    return module ? this.use(module).renderButton() : nothing;
  }

  private use(module: ExportModule) {
    return (this.control ??= new module.Exporter(this.ctx));
  }
}
