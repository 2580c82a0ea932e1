/**
 * Reading a long log, a chunk (src/chunks.ts `reading`): moving the rendered window as the
 * reader scrolls near an edge, presses "show earlier" or finds a message with Find in page,
 * and the arrow keys between messages, which move it too. The log (src/log/log.ts) places
 * the window as the conversation changes and renders it.
 */
import type { PanelContext } from '../panel/context.js';
import { MOST, MOVES, type ReadingHost, WINDOW } from './log.js';

/** The rendered message with `key`, if it is rendered. */
const rendered = (ctx: PanelContext, key: string | undefined) => ctx.focusKeeper.messages().find((element) => element.dataset.key === key);

/**
 * The window that takes in message `index` of `count` from the window `start`..`end`
 * (`end` ≤ `count`): a step of WINDOW at least toward it, letting go of the far edge past
 * MOST; its `end` is Infinity when it reaches the latest (it follows them then).
 */
export function moveWindow(start: number, end: number, index: number, count: number): { start: number; end: number } {
  if (index < start) {
    start = Math.max(0, Math.min(index, start - WINDOW));
    end = Math.min(end, start + MOST);
  } else if (index >= end) {
    end = Math.max(index + 1, end + WINDOW);
    start = Math.max(start, end - MOST);
  }
  return { start, end: end < count ? end : Infinity };
}

/**
 * Moves the window to take in message `index`, keeps the message at the near edge where the
 * reader sees it, and hands the message to `then` once rendered.
 */
function reveal({ ctx, view, element: log }: ReadingHost, index: number, then?: (element: HTMLElement | undefined) => void): void {
  const { messages } = ctx.chat.state;
  const { start } = view.value;
  const end = Math.min(view.value.end, messages.length);
  if (!log || !messages[index]) return;
  const kept = rendered(ctx, messages[index < start ? start : end - 1]?.key);
  const top = kept?.getBoundingClientRect().top ?? 0;
  view.set(moveWindow(start, end, index, messages.length));
  void ctx.host.updateComplete.then(() => {
    if (kept?.isConnected) log.scrollTop += kept.getBoundingClientRect().top - top;
    then?.(rendered(ctx, messages[index]!.key));
  });
}

/**
 * On the log or on a message, ArrowUp/ArrowDown move between messages, Home/End go to the
 * first/last; from the log itself ArrowUp starts at the latest message. Past the window's
 * edge they move it, so the keys reach every message. `target` is the log or a message.
 */
function navigate(host: ReadingHost, key: string, target: HTMLElement): void {
  const { ctx, view } = host;
  const list = ctx.focusKeeper.messages();
  const onLog = target === host.element;
  const index = list.indexOf(target);
  const { messages } = ctx.chat.state;
  const { start, end } = view.value;
  const count = messages.length;
  const at = messages.findIndex((m) => m.key === target.dataset.key);
  // A message outside the window: the window moves there first.
  let beyond = -1;
  if (key === 'ArrowUp' && at > 0 && at === start) beyond = at - 1;
  else if (key === 'ArrowDown' && at >= 0 && at === end - 1 && end < count) beyond = at + 1;
  else if (key === 'ArrowDown' && !onLog && at < 0 && start > 0)
    beyond = 0; // from the welcome
  else if (key === 'Home' && start > 0) beyond = 0;
  else if ((key === 'End' || (onLog && key === 'ArrowUp')) && end < count) beyond = count - 1;
  if (beyond >= 0) return reveal(host, beyond, (element) => (key === 'Home' ? ctx.focusKeeper.messages()[0] : element)?.focus());
  let next: HTMLElement | undefined;
  if (key === 'ArrowUp') next = onLog ? list.at(-1) : list[index - 1];
  else if (key === 'ArrowDown') next = onLog ? list[0] : list[index + 1];
  else if (key === 'Home') next = list[0];
  else next = list.at(-1);
  next?.focus();
}

/** An event of the log's, by what happened (`key` of a key, else its type), on `target`. */
export function act(host: ReadingHost, what: string, target: HTMLElement): void {
  const { ctx, view, element: log } = host;
  const { messages } = ctx.chat.state;
  const { start, end } = view.value;
  if (!log) return;
  if (target.closest('.jump')) {
    // "Jump to latest": away from the latest, other messages replace the window (nothing to
    // scroll through, the log starts at their end); else an animated scroll, where seen.
    host.stickToBottom = true;
    if (end < messages.length) {
      host.toEnd = true;
      view.set({ start: messages.length - WINDOW, end: Infinity, showJump: false });
    } else {
      view.set({ showJump: false });
      const instant = document.hidden || matchMedia('(prefers-reduced-motion: reduce)').matches;
      log.scrollTo({ top: log.scrollHeight, behavior: instant ? 'auto' : 'smooth' });
    }
    ctx.focusInput();
  } else if (what === 'click') reveal(host, start - 1);
  else if (MOVES.includes(what)) navigate(host, what, target);
  else if (what === 'beforematch') {
    // Find in page matched the hidden text of a message outside the window: render it there.
    host.stickToBottom = false;
    const index = messages.findIndex((m) => m.key === target.dataset.key);
    reveal(host, index, (element) => element?.scrollIntoView({ block: 'center' }));
  } else if (what === 'scroll') {
    if (start > 0 && log.scrollTop < 48) reveal(host, start - 1);
    else if (end < messages.length && log.scrollHeight - log.scrollTop - log.clientHeight < 48) reveal(host, end);
  }
}
