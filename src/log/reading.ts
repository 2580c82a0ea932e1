/**
 * Reading the log, a chunk (src/chunks.ts `reading`): moving the rendered window as the
 * reader scrolls near an edge, presses "show earlier" or finds a message with Find in page,
 * and the arrow keys between messages, which move it too; a new turn's question kept near
 * the top while its reply grows below; where the reader is, kept for the tab's next page
 * of the site. The log (src/log/log.ts) places the window as the conversation changes and
 * renders it.
 */
import type { PanelContext } from '../panel/context.js';
import type { Strings } from '../i18n/strings.js';
import { tabKey, tabStorage } from '../shell/tab-view.js';
import type { PersistMode } from '../state/storage.js';
import { scopeOf } from '../state/storage.js';
import type { ReadingHost } from './window.js';
import { MOST, MOVES, WINDOW } from './window.js';

export { readingStyles as styles } from './reading.styles.js';

/** The English of the moves' texts (the other languages' tables carry them too). */
export const strings: Pick<Strings, 'newMessages' | 'showEarlier'> = {
  newMessages: (count) => (count === 1 ? '1 new message' : `${count} new messages`),
  showEarlier: (count) => `Show ${count} earlier messages`,
};

/** How far below the log's top a placed question sits. */
const PLACED_AT = 8;

/** The rendered message with `key`, if it is rendered. */
const rendered = (ctx: PanelContext, key: string | null | undefined) =>
  ctx.focusKeeper.messages().find((element) => element.dataset.key === key);

/** How far below the log's top `element` is. */
/**
 * How far below the log's top `element` is, in the log's own pixels. Client rectangles are
 * taken after transforms, and the launcher's panel opens scaled (0.98): measured during that,
 * a place 1,200 px down read 24 px short, and the reopened panel showed the reader's message
 * that much off (Firefox).
 */
function below(log: HTMLElement, element: Element): number {
  const box = log.getBoundingClientRect();
  const scale = log.offsetHeight ? box.height / log.offsetHeight : 1;
  return (element.getBoundingClientRect().top - box.top) / (scale || 1);
}

/**
 * Keeps the placed question near the log's top (its reply grows below it; once the reply
 * runs past the view, "jump to latest" says so). False when the question is not rendered.
 */
export function pin(host: ReadingHost, log: HTMLElement): boolean {
  const question = rendered(host.ctx, host.placed);
  if (!question) return false;
  host.stickToBottom = false;
  const off = Math.round(below(log, question) - PLACED_AT);
  if (Math.abs(off) > 1) log.scrollTop += off;
  if (log.firstElementChild!.getBoundingClientRect().bottom > log.getBoundingClientRect().bottom + 1 && !host.view.value.showJump)
    host.showJump();
  return true;
}

/** Each log's pending write of where the reader is (`keepPlace`). */
const saving = new WeakMap<ReadingHost, number>();
/** The logs whose place is kept when the page goes (a link, a reload), held weakly: a widget taken off the page goes. */
const watched = new Set<WeakRef<ReadingHost>>();
const seen = new WeakSet<ReadingHost>();

function watch(host: ReadingHost): void {
  if (seen.has(host)) return;
  seen.add(host);
  if (!watched.size) {
    addEventListener('pagehide', () => {
      for (const ref of watched) {
        const live = ref.deref();
        if (live) keepPlace(live);
        else watched.delete(ref);
      }
    });
  }
  watched.add(new WeakRef(host));
}

/**
 * The log scrolled: where the reader is is kept (a little later: a scroll is many events).
 * True when the scroll was the log's own, pinning the placed question (or the browser
 * keeping what is in view in place); any other move leaves the question to the reader.
 */
export function scrolled(host: ReadingHost, log: HTMLElement): boolean {
  watch(host);
  if (!saving.get(host))
    saving.set(
      host,
      window.setTimeout(() => (saving.delete(host), keepPlace(host)), 300),
    );
  if (!host.placed) return false;
  const question = rendered(host.ctx, host.placed);
  if (question && Math.abs(below(log, question) - PLACED_AT) <= 2) return true;
  host.placed = null;
  return false;
}

/**
 * The space under the latest turn of the reader's: enough for its question to reach the
 * log's top however short the reply (none once the reply fills the view). It stays as the
 * reader scrolls; a new transcript takes it away.
 */
export function fitSpace(host: ReadingHost, log: HTMLElement): void {
  const space = log.querySelector<HTMLElement>('.turn-space');
  const question = rendered(host.ctx, host.spaceFor);
  if (!space) return;
  let height = 0;
  if (question) {
    const under = log.firstElementChild!.getBoundingClientRect().bottom - question.getBoundingClientRect().top;
    height = Math.max(0, Math.ceil(log.clientHeight - under - parseFloat(getComputedStyle(log).paddingBottom) - PLACED_AT));
  }
  if (space.offsetHeight !== height) space.style.height = `${height}px`;
}

/**
 * Where the reader is in a thread: the message at the log's top and how far below the top it
 * is (null: at the end); in a long reply with boxes, the block at the top instead (its index
 * among the reply's blocks), since a box above it may not have been laid out on either page.
 */
export interface Place {
  thread: string;
  at: string | null;
  offset: number;
  block?: number;
}

/** A reply's blocks in order, in its element and in its boxes (src/markdown/directive.ts GROUP_BITS); none when it has no box. */
const boxedBlocks = (message: Element) =>
  message.querySelector('[part~="text"] > .g')
    ? Array.from(message.querySelectorAll<HTMLElement>('[part~="text"] > :not(.g), [part~="text"] > .g > *'))
    : [];

/** The place this tab kept for the scope (src/shell/tab-view.ts), checked field by field; null when none or malformed. */
export function readPlace(persist: PersistMode, scope: string): Place | null {
  try {
    const raw: unknown = JSON.parse(tabStorage(persist)?.getItem(tabKey(scope, 'place')) ?? 'null');
    const { thread, at, offset, block } = (raw ?? {}) as Record<string, unknown>;
    const id = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 128;
    if (!id(thread) || !(at === null || id(at)) || typeof offset !== 'number' || !(Math.abs(offset) < 1e5)) return null;
    const place: Place = { thread: thread as string, at: at as string | null, offset };
    if (Number.isSafeInteger(block) && (block as number) >= 0) place.block = block as number;
    return place;
  } catch {
    return null;
  }
}

/** Keeps where the reader is, for the tab's next page of the site. */
export function keepPlace({ ctx, element: log, stickToBottom }: ReadingHost): void {
  const config = ctx.view.config;
  const thread = ctx.chat.threadId;
  if (!log?.clientHeight || !config || !thread) return;
  const first = stickToBottom
    ? undefined
    : ctx.focusKeeper.messages().find((m) => m.getBoundingClientRect().bottom > log.getBoundingClientRect().top);
  const top = log.getBoundingClientRect().top;
  const blocks = first ? boxedBlocks(first) : [];
  const block = blocks.findIndex((b) => b.getBoundingClientRect().bottom > top);
  const anchor = blocks[block] ?? first;
  const place: Place = { thread, at: first?.dataset.key ?? null, offset: anchor ? Math.round(below(log, anchor)) : 0 };
  if (anchor !== first) place.block = block;
  try {
    tabStorage(config.persist)?.setItem(tabKey(scopeOf(config), 'place'), JSON.stringify(place));
  } catch {
    // Quota or privacy mode: the next page opens at the end, as a first visit does.
  }
}

/** The first transcript of a page: the reader goes back where the tab's page before left them in that thread. */
export function restorePlace(host: ReadingHost): void {
  const { ctx, element: log } = host;
  const config = ctx.view.config;
  const place = config && readPlace(config.persist, scopeOf(config));
  const index = place?.at && place.thread === ctx.chat.threadId ? ctx.chat.state.messages.findIndex((m) => m.key === place.at) : -1;
  if (!log || index < 0 || host.placed) return;
  host.stickToBottom = false;
  host.view.set(
    moveWindow(host.view.value.start, Math.min(host.view.value.end, ctx.chat.state.messages.length), index, ctx.chat.state.messages.length),
  );
  void ctx.host.updateComplete.then(() => {
    const element = rendered(ctx, place!.at);
    // In a long reply, the block: the boxes above it count as a guess of their size until
    // they are in view, and so does the place's distance from the message's top.
    const anchor = (element && place!.block !== undefined && boxedBlocks(element)[place!.block]) || element;
    if (anchor) log.scrollTop += below(log, anchor) - place!.offset;
  });
}

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
    host.placed = null;
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
