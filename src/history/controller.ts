import { lazy } from '../lazy.js';
import { Feature } from '../panel/feature.js';
import { renderNotice } from '../notices/notice.js';
import type { PanelContext } from '../panel/context.js';

/** The list of earlier conversations (history.ts), fetched when it is first opened. */
const loadHistory = lazy(() => import('./history.js'));

/**
 * The panel's side of the history: whether the list is open, and what picking or removing
 * an entry does. The entries themselves are kept by the conversation (src/state/history.ts).
 */
export class HistoryControl {
  private readonly feature: Feature<typeof import('./history.js')>;
  isOpen = false;

  constructor(private readonly ctx: PanelContext) {
    this.feature = new Feature(loadHistory, ctx.host);
  }

  needs(): Array<Promise<unknown>> {
    return this.isOpen ? [this.feature.ensure()] : [];
  }

  async toggle(): Promise<void> {
    const { host } = this.ctx;
    this.isOpen = !this.isOpen;
    host.requestUpdate();
    if (!this.isOpen) return;
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>('.history button')?.focus();
  }

  close(): void {
    const { host } = this.ctx;
    this.isOpen = false;
    host.requestUpdate();
    host.renderRoot.querySelector<HTMLElement>('[part="history-button"]')?.focus();
  }

  /** The history panel, from its chunk; a notice if the chunk could not load. */
  render() {
    const { host, text: t } = this.ctx;
    const history = this.feature.module;
    if (!history) {
      return renderNotice(t, {
        title: t.errorNetwork,
        onRetry: () => void this.feature.retry().then(() => host.requestUpdate()),
        onDismiss: () => this.close(),
      });
    }
    return history.renderHistoryPanel(
      this.ctx,
      () => {
        this.isOpen = false;
        host.requestUpdate();
      },
      () => this.close(),
    );
  }
}
