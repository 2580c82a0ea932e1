import type { PanelContext, ViewState } from '../panel/context.js';

/**
 * The log's window (src/log/log.ts) and what the log lends its reading moves, in a module
 * of their own: the reading chunk reads them too, and importing them from log.ts placed the log's code (through that chunk) early in the
 * panel's chunk, out of gzip's reach of the panel that renders it (BENCHMARKS.md "Bundle size").
 */

/**
 * Messages a step of the window adds (a transcript opens on its latest WINDOW; scrolling or
 * the arrow keys past an edge add as many): a screenful and more, yet few enough that one
 * step (markdown, style and layout of the new messages) stays well under a 50 ms task on a
 * slow machine (BENCHMARKS.md).
 */
export const WINDOW = 15;
/**
 * The most messages rendered at once. The window recycles: past this bound, what it takes
 * in at one edge it lets go at the other, so reading through thousands of messages keeps
 * the DOM, the style and layout work and every later render as small as for a short
 * conversation. The others stay in the log as hidden-until-found text (see `render`).
 */
export const MOST = 60;

/** The keys that move between messages (src/log/reading.ts). */
export const MOVES = ['ArrowUp', 'ArrowDown', 'Home', 'End'];

/** The rendered window of the log: messages `start` to `end` (exclusive; Infinity while it follows the latest). */
export interface LogWindow {
  start: number;
  end: number;
  showJump: boolean;
}

/** What the log lends the reading moves (src/log/reading.ts). */
export interface ReadingHost {
  readonly ctx: PanelContext;
  readonly view: ViewState<LogWindow>;
  readonly element: HTMLElement | null;
  /** Following the latest (the reader is at the bottom). */
  stickToBottom: boolean;
  /** Set with a window placed at the latest or a question placed: the log goes there as it renders. */
  toEnd: boolean;
  /** The question of the reader's new turn, kept near the log's top while its reply grows below (`Log.place`). */
  placed: string | null;
  /** The question the space under the latest turn is measured from (it stays as the reader scrolls). */
  spaceFor: string | null;
  /** Shows "jump to latest". */
  showJump(): void;
}
