/**
 * Highlighting in slices of the main thread (DOM-free; test/unit/highlight.test.ts).
 *
 * Each block's work is a series of steps, each one call of the highlighter on a piece of at
 * most PIECE_CHARS (pieces.ts), so no step is long. Steps run while the task they are in
 * has time left: a draw may spend SYNC_MS of its task (a short block, or the line that just
 * ended, shows coloured in the frame that shows it), then the rest runs in tasks of their
 * own of SLICE_MS each, with the event loop (input, rendering) between them. Each block's
 * steps are charged to it: a block past its budget is given up (it shows plain).
 *
 * Why not a Web Worker: the widget is served from CDNs on other origins, and a worker cannot
 * start from another origin's script; one from a blob needs `worker-src blob:` (or
 * `script-src` that allows it), which strict host policies (demo/csp.html) do not grant, and
 * Trusted Types to create its URL. The work would need this path anyway where it cannot
 * start, and bounded steps make the main thread's worst case small enough not to need one.
 */

/** One block's highlighting, a step at a time. */
export interface Work {
  /** Highlights the next piece (at most one call of the highlighter); false when nothing is left. */
  step(): boolean;
  /** The main-thread time its steps have taken, in milliseconds (Slices keeps it). */
  spent: number;
  /** What they may take in all, in milliseconds. */
  readonly budget: number;
  /** Past its budget: it stops, and shows what it shows plain. */
  giveUp(): void;
  /** Whether it is still shown: work for a block no longer on the page is dropped (read between tasks only). */
  readonly shown: boolean;
}

/** What a draw may spend on highlighting in its own task, in milliseconds. */
export const SYNC_MS = 4;
/** What one task of its own spends on highlighting, in milliseconds, before it yields. */
export const SLICE_MS = 8;
/** The most one step counts against its block's budget, in milliseconds. */
export const STEP_CHARGE_MS = 16;

export class Slices {
  /** Blocks with work left: the block being drawn first, then first come first served. */
  private __queue = new Set<Work>();
  /** What the current task may still spend on highlighting, in milliseconds (undefined: it has not started to). */
  private __left: number | undefined;
  private __slice: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly __now: () => number = () => performance.now()) {}

  /** Runs `work` now, while this task's allowance lasts, and the rest in tasks of their own. */
  run(work: Work): void {
    // What the reader looks at first: a streaming block's line that just ended, not a
    // block further up that is still waiting for its turn.
    this.__queue = new Set([work, ...this.__queue]);
    if (this.__left === undefined) {
      this.__left = SYNC_MS;
      // The allowance is this task's (this render's): the next starts afresh. A timer could
      // fire after the next frame's render, which would then find the allowance spent.
      queueMicrotask(() => (this.__left = undefined));
    }
    this.__drain(false);
  }

  /**
   * Steps of the queued work until the allowance is spent: the time in steps counts, not
   * what the task does between them (a render draws other blocks between its code blocks).
   * `later`: in a task of its own.
   */
  private __drain(later: boolean): void {
    let left = this.__left ?? 0;
    for (const work of this.__queue) {
      let more = !later || work.shown;
      while (more && work.spent <= work.budget && left > 0) {
        const start = this.__now();
        more = work.step();
        const cost = this.__now() - start;
        left -= cost;
        // One slow step is the machine (a garbage collection, a grammar's first use, another
        // tab), not the code: the budget runs out on many.
        work.spent += Math.min(cost, STEP_CHARGE_MS);
        if (work.spent > work.budget) work.giveUp();
      }
      if (more && work.spent <= work.budget) break;
      this.__queue.delete(work);
    }
    if (this.__left !== undefined) this.__left = left;
    if (this.__queue.size && !this.__slice)
      this.__slice = setTimeout(() => {
        this.__slice = undefined;
        this.__left = SLICE_MS;
        this.__drain(true);
        this.__left = undefined;
      });
  }
}
