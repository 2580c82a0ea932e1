/**
 * Copy a reply: the button under each finished agent reply (part `copy-button`). It puts
 * the reply's markdown source on the clipboard, as the agent wrote it; "Copied" shows on
 * the button for a moment and is announced politely. A chunk of its own (slot.ts fetches
 * it with the first finished reply).
 */
import { html, svg } from 'lit-html';
import { icon } from '../icons/icons.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';

const icons = {
  copy: icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M15 9V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v9a1 1 0 0 0 1 1h4"/>`),
  done: icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`),
};

/** How long the button says "Copied". */
const COPIED_MS = 2000;

export class CopyReply {
  /** The reply just copied (its key), while the button says so. */
  private readonly view: ViewState<{ copied: string | null }>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ctx: PanelContext) {
    this.view = new ViewState(ctx.host, { copied: null });
  }

  /** The button under `m`, a finished reply (slot.ts decides which). */
  render(m: ChatMessage) {
    const t = this.ctx.text;
    const done = this.view.value.copied === m.key;
    const label = done ? t.copied : t.copyReply;
    return html`<button part="copy-button" class="icon-button small" type="button" aria-label=${label} title=${label} @click=${() => void this.copy(m)}>
      ${done ? icons.done : icons.copy}
    </button>`;
  }

  private async copy(m: ChatMessage): Promise<void> {
    const { ctx } = this;
    try {
      // No clipboard outside secure contexts (the call throws), or the browser refused.
      await navigator.clipboard.writeText(m.text);
    } catch {
      ctx.announce(ctx.text.copyFailed);
      return;
    }
    this.view.set({ copied: m.key });
    ctx.announce(ctx.text.copied);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.view.set({ copied: null }), COPIED_MS);
  }
}
