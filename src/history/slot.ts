import { history as historyChunk } from '../chunks.js';
import { renderNotice } from '../notices/notice.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';

/**
 * The panel's side of the history (the chunk is index.ts): whether the list is open, and
 * what picking or removing an entry does. The entries themselves are kept by the
 * conversation (src/state/history.ts, through Threads, whose changes render the panel).
 */
export class HistorySlot {
  private readonly feature: Feature<typeof import('./index.js')>;
  private readonly view: ViewState<{ open: boolean }>;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(historyChunk, true);
    this.view = new ViewState(ctx.host, { open: false });
  }

  get isOpen(): boolean {
    return this.view.value.open;
  }

  async toggle(): Promise<void> {
    const { host } = this.ctx;
    const open = !this.isOpen;
    // The list waits a little for its chunk, so it does not open empty.
    if (open) void this.feature.want(true);
    this.view.set({ open });
    if (!open) return;
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>('.history button')?.focus();
  }

  close(): void {
    this.view.set({ open: false });
    this.ctx.host.renderRoot.querySelector<HTMLElement>('[part="history-button"]')?.focus();
  }

  /** The history panel, from its chunk; a notice if the chunk could not load. */
  render() {
    const { text: t } = this.ctx;
    const history = this.feature.module;
    if (!history) {
      return renderNotice(t, {
        title: t.errorNetwork,
        onRetry: () => void this.feature.retry(),
        onDismiss: () => this.close(),
      });
    }
    return history.renderHistoryPanel(
      this.ctx,
      () => this.view.set({ open: false }),
      () => this.close(),
    );
  }
}
