import { nothing } from 'lit-html';
import { renderNotice } from '../notices/notice.js';
import { ViewState } from '../panel/context.js';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

/**
 * The history list over the messages: whether it is open, and what picking or removing an
 * entry does. Fetched when first opened (the list waits a little for it, so it does not
 * open empty); a chunk that cannot load is said in the list's place. The entries themselves
 * are kept by the conversation (src/state/history.ts, through Threads).
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module) => module,
).with({
  saysFailure: true,
  mount: (use) => {
    const { host } = use.ctx;
    const view = new ViewState(host, { open: false });
    const api = {
      view,
      get isOpen(): boolean {
        return view.value.open;
      },
      async toggle(): Promise<void> {
        const open = !view.value.open;
        if (open) void use.want(true);
        view.set({ open });
        if (!open) return;
        await host.updateComplete;
        host.renderRoot.querySelector<HTMLElement>('.history button')?.focus();
      },
      close(): void {
        view.set({ open: false });
        host.renderRoot.querySelector<HTMLElement>('[part="history-button"]')?.focus();
      },
    };
    return api;
  },
  places: {
    overLog: ({ control, feature, ctx, api }) => {
      if (!api.isOpen) return nothing;
      const { text: t } = ctx;
      if (!control) return renderNotice(t, { title: t.errorNetwork, onRetry: () => void feature.retry(), onDismiss: () => api.close() });
      return control.renderHistoryPanel(
        ctx,
        () => api.view.set({ open: false }),
        () => api.close(),
      );
    },
  },
});
