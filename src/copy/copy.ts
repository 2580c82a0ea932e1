/**
 * Copy a reply: the button under each finished agent reply (part `copy-button`). It puts
 * the reply's markdown source on the clipboard, as the agent wrote it; "Copied" shows on
 * the button for a moment and is announced politely. Rendered by the turn controls
 * (src/branches/controller.ts), so it comes with their chunk.
 */
import { html, nothing, svg } from 'lit-html';
import { icon } from '../icons/icons.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';

const icons = {
  copy: icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M15 9V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v9a1 1 0 0 0 1 1h4"/>`),
  done: icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`),
};

/** How long the button says "Copied". */
const COPIED_MS = 2000;

export class CopyReply {
  /** The reply just copied (its key), while the button says so. */
  private copied: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ctx: PanelContext) {}

  render(m: ChatMessage) {
    if (m.role !== 'agent' || !m.text || m.state === 'streaming' || m.state === 'queued') return nothing;
    const t = this.ctx.text;
    const done = this.copied === m.key;
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
    this.copied = m.key;
    ctx.announce(ctx.text.copied);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.copied = null;
      ctx.host.requestUpdate();
    }, COPIED_MS);
  }
}
