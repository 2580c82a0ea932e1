/**
 * Links in agent text, as the host wants them opened. A click on one fires the cancelable
 * `agent-chat-link-click` `{url, text, messageId}`: a host can route it (open a product page
 * in its own router, track it) and `preventDefault()` so the widget does not open it.
 * Otherwise the link opens as rendered, in a new tab; with `link-target="auto"` a link to
 * this site opens in this tab, and the conversation follows the visitor to the next page
 * (it is kept, `persist`).
 *
 * Only a plain click is taken over: Ctrl/⌘/Shift-click and the middle button keep what the
 * browser does with them (their event is not cancelable).
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
  // The link's own text, without the host name decorate.ts adds to a misleading one.
  const text = Array.from(link.childNodes, (node) => (node instanceof Element && node.matches('.link-host') ? '' : node.textContent)).join(
    '',
  );
  const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
  // A modified click is heard too, but cannot be cancelled: it stays the browser's.
  if (!emit(ctx.host, 'agent-chat-link-click', { url, text, messageId }, plain) && plain) {
    event.preventDefault();
    return;
  }
  if (plain && ctx.host.linkTarget === 'auto' && new URL(url).origin === location.origin) {
    event.preventDefault();
    location.assign(url);
  }
}
