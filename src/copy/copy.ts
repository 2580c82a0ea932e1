/**
 * Copy a reply: the button under each finished agent reply (part `copy-button`). It puts
 * the reply's markdown source on the clipboard, as the agent wrote it; "Copied" shows on
 * the button for a moment and is announced politely. A chunk of its own (feature.ts fetches
 * it as a thread loads or a turn starts).
 */
import { html, svg } from 'lit-html';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';

const icons = {
  copy: svg`<rect x="9" y="9" width="11" height="11" rx="2" /><path d="M15 9V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v9a1 1 0 0 0 1 1h4" />`,
  done: svg`<path d="M5 12.5l4.5 4.5L19 7.5" />`,
};

/** How long the button says "Copied". */
const COPIED_MS = 2000;

export class CopyReply {
  /** The reply just copied (its key), while the button says so. */
  private readonly __view: ViewState<{ copied: string | null }>;
  private __timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly __ctx: PanelContext) {
    // "Copied" shows in one message: only the messages it leaves and enters render again.
    this.__view = new ViewState<{ copied: string | null }>(
      __ctx.host,
      { copied: null },
      { renders: __ctx.renders, keys: ({ copied }) => [copied] },
    );
    __ctx.onMessageAction('copy', (m) => void this.__copy(m));
  }

  /**
   * The button under `m`, a finished reply (feature.ts decides which): the panel's one click
   * listener serves it (`data-act`), and the icon's frame is in its template (a nested icon
   * is a node more, on every reply).
   */
  render(m: ChatMessage) {
    const t = this.__ctx.text;
    const done = this.__view.value.copied === m.key;
    const label = done ? t.copied : t.copyReply;
    return html`<button part="copy-button" class="icon-button small" type="button" aria-label=${label} title=${label} data-act="copy"
      ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${done ? icons.done : icons.copy}</svg></button
    >`;
  }

  private async __copy(m: ChatMessage): Promise<void> {
    const { __ctx: ctx } = this;
    try {
      // No clipboard outside secure contexts (the call throws), or the browser refused.
      await navigator.clipboard.writeText(m.text);
    } catch {
      ctx.announce(ctx.text.copyFailed);
      return;
    }
    this.__view.set({ copied: m.key });
    ctx.announce(ctx.text.copied);
    clearTimeout(this.__timer);
    this.__timer = setTimeout(() => this.__view.set({ copied: null }), COPIED_MS);
  }
}
