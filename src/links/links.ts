/**
 * Links in agent text, as the host wants them opened. A click on one fires the cancelable
 * `agent-chat-link-click` `{url, text, messageId}`: a host can route it (open a product page
 * in its own router, track it) and `preventDefault()` so the widget does not open it.
 * Otherwise the link opens as rendered, in a new tab; with `link-target="auto"` a link to
 * this site opens in this tab, and the conversation follows the visitor to the next page
 * (it is kept, `persist`).
 *
 * Only a plain click is taken over: Ctrl/⌘/Shift-click and the middle button keep what the
 * browser does with them.
 */
import { emit } from '../events.js';
import type { PanelContext } from '../panel/context.js';

export function handleLinkClick(event: MouseEvent, ctx: PanelContext): void {
  const target = event.composedPath()[0];
  const link = target instanceof Element ? target.closest<HTMLAnchorElement>('[part~="text"] a[href]') : null;
  if (!link || event.defaultPrevented) return;
  const key = link.closest<HTMLElement>('[data-key]')?.dataset.key;
  const messageId = ctx.chat.messages.find((m) => m.key === key)?.id ?? null;
  const url = link.href;
  if (!emit(ctx.host, 'agent-chat-link-click', { url, text: link.textContent ?? '', messageId }, true)) {
    event.preventDefault();
    return;
  }
  const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
  if (plain && ctx.host.linkTarget === 'auto' && new URL(url).origin === location.origin) {
    event.preventDefault();
    location.assign(url);
  }
}
