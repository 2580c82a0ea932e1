import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PIECE_CHARS, PLAIN_CHARS, pieceEnd, plainEnd } from '../../src/highlight/pieces.js';
import { SLICE_MS, Slices, STEP_CHARGE_MS, SYNC_MS, type Work } from '../../src/highlight/slices.js';

/**
 * Highlighting with a budget (src/highlight/): where code is cut into the pieces one call of
 * the highlighter reads, and how the calls are spread over the main thread. What a reader
 * sees (colours, the streamed DOM, a block that shows plain) is tested in browsers
 * (test/render/highlight.test.ts).
 */

/** `text` cut as the highlighter cuts it. */
function cut(text: string, from = 0): string[] {
  const pieces: string[] = [];
  while (from < text.length) {
    const end = pieceEnd(text, from, text.length);
    pieces.push(text.slice(from, end));
    from = end;
  }
  return pieces;
}

/** Code-like text: short and long lines, blank lines, blanks that are not line breaks. */
const code = fc
  .array(
    fc.oneof(
      fc.constantFrom('\n', '\n\n', ' \t\n', '{\n', '}\n', '  return x;\n', '/* a\n\n b */\n'),
      fc.string({ unit: fc.constantFrom('a', ' ', '\t', '"', '\n'), maxLength: 40 }),
      fc.integer({ min: PIECE_CHARS - 2, max: PIECE_CHARS + 40 }).map((n) => 'x'.repeat(n) + '\n'),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('the pieces of a code block', () => {
  it('are its whole text, cut at line ends, each within PIECE_CHARS unless it is one line', () => {
    fc.assert(
      fc.property(code, (text) => {
        const pieces = cut(text);
        expect(pieces.join('')).toBe(text);
        for (const [i, piece] of pieces.entries()) {
          expect(piece.length).toBeGreaterThan(0);
          if (i < pieces.length - 1) expect(piece.endsWith('\n')).toBe(true);
          if (piece.length > PIECE_CHARS) expect(piece.indexOf('\n')).toBeGreaterThanOrEqual(piece.length - 1);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('are cut after a blank line that text follows, and nowhere else while they fit', () => {
    expect(cut('a\nb\n\nc\n\n\n  d\n')).toEqual(['a\nb\n\n', 'c\n\n\n', '  d\n']);
    expect(cut('\n\na\n \t\nb')).toEqual(['\n\n', 'a\n \t\n', 'b']);
    const line = 'x'.repeat(100) + '\n';
    expect(cut(line.repeat(6))).toEqual([line.repeat(5), line]);
    const long = 'y'.repeat(PIECE_CHARS + 1) + '\n';
    expect(cut(`a\n${long}b\n`)).toEqual(['a\n', long, 'b\n']);
  });

  it('stay as they were as the text grows, but the last (a streamed block keeps them)', () => {
    fc.assert(
      fc.property(code, code, (start, more) => {
        const before = cut(start);
        const after = cut(start + more);
        expect(after.slice(0, Math.max(0, before.length - 1))).toEqual(before.slice(0, -1));
        // Cut from any piece's start, the rest is cut the same: a frame cuts only what follows the pieces drawn.
        const from = after.slice(0, -1).reduce((sum, piece) => sum + piece.length, 0);
        expect(cut(start + more, from)).toEqual(after.slice(-1));
      }),
      { numRuns: 2000 },
    );
  });
});

/** `text` drawn plain: its blocks, and the rest drawn as it is. */
function blocks(text: string): { blocks: string[]; rest: string } {
  const out: string[] = [];
  let from = 0;
  for (let end; (end = plainEnd(text, from)) > from; from = end) out.push(text.slice(from, end));
  return { blocks: out, rest: text.slice(from) };
}

/** Plain code: long runs without a line break among ordinary lines. */
const plainCode = fc
  .array(
    fc.oneof(
      fc.string({ unit: fc.constantFrom('a', ' ', '\n'), maxLength: 80 }),
      fc.integer({ min: PLAIN_CHARS - 2, max: PLAIN_CHARS + 40 }).map((n) => 'x'.repeat(n)),
      fc.constant('\n'),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

describe('the blocks of plain code', () => {
  it('are its text, cut at line ends, each within PLAIN_CHARS unless it is one line; the rest at most a block or one line', () => {
    fc.assert(
      fc.property(plainCode, (text) => {
        const { blocks: list, rest } = blocks(text);
        expect(list.join('') + rest).toBe(text);
        for (const block of list) {
          expect(block.endsWith('\n')).toBe(true);
          if (block.length > PLAIN_CHARS) expect(block.indexOf('\n')).toBe(block.length - 1);
        }
        expect(rest.length <= PLAIN_CHARS || !rest.includes('\n')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('are cut at the last line end that fits, else after the longer line; none while PLAIN_CHARS or fewer follow', () => {
    const line = 'x'.repeat(99) + '\n';
    expect(plainEnd(line.repeat(20), 0)).toBe(0);
    expect(plainEnd(line.repeat(21), 0)).toBe(20 * 100);
    expect(plainEnd(line.repeat(21), 100)).toBe(100);
    const long = 'y'.repeat(PLAIN_CHARS + 10);
    expect(plainEnd(long, 0), 'a line not yet ended').toBe(0);
    expect(plainEnd(`${long}\nz`, 0)).toBe(long.length + 1);
  });

  it('stay as they were as the text grows (a streamed block keeps them)', () => {
    fc.assert(
      fc.property(plainCode, plainCode, (start, more) => {
        const before = blocks(start).blocks;
        expect(blocks(start + more).blocks.slice(0, before.length)).toEqual(before);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('highlighting in slices', () => {
  let clock = 0;
  let slices: Slices;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    slices = new Slices(() => clock);
  });
  afterEach(() => vi.useRealTimers());

  /** A block of `steps` calls of `cost` ms each (the clock moves by it), which logs when each ran. */
  function block(steps: number, cost: number, budget = Infinity): Work & { ran: number[]; gaveUp: number; shown: boolean } {
    return {
      ran: [],
      gaveUp: 0,
      shown: true,
      spent: 0,
      budget,
      step() {
        this.ran.push(clock);
        clock += cost;
        return this.ran.length < steps;
      },
      giveUp() {
        this.gaveUp++;
      },
    };
  }

  /** The tasks that ran steps, and how many each: the clock does not move between tasks by itself. */
  async function tasks(): Promise<void> {
    await Promise.resolve();
    // Each timer is one task; the gap between tasks stands for the rest of the event loop.
    while (vi.getTimerCount()) {
      clock += 100;
      vi.advanceTimersToNextTimer();
    }
  }

  it('highlights in the draw while SYNC_MS last, then in tasks of SLICE_MS, one call past them at most', async () => {
    const work = block(40, 1.5);
    slices.run(work);
    const inDraw = work.ran.length;
    expect(inDraw).toBe(Math.ceil(SYNC_MS / 1.5));
    await tasks();
    expect(work.ran).toHaveLength(40);
    // Steps 100 ms apart are in different tasks: each task's steps span less than SLICE_MS.
    const perTask: number[][] = [];
    for (const at of work.ran.slice(inDraw)) {
      const last = perTask.at(-1);
      if (last && at - last[0]! < 100) last.push(at);
      else perTask.push([at]);
    }
    expect(perTask.length).toBeGreaterThan(1);
    for (const steps of perTask) expect(steps.at(-1)! + 1.5 - steps[0]!).toBeLessThan(SLICE_MS + 1.5);
    expect(work.spent).toBeCloseTo(40 * 1.5);
  });

  it('gives each draw its own allowance, shared by the blocks it draws, the block drawn first', async () => {
    const first = block(10, 1);
    const second = block(10, 1);
    slices.run(first);
    slices.run(second);
    expect(first.ran.length + second.ran.length).toBe(SYNC_MS);
    await Promise.resolve();
    // The next draw (a frame later) has its allowance again, and spends it on the block it
    // draws (a streaming block's new line) before the blocks still waiting for their turn.
    clock += 100;
    const third = block(10, 1);
    slices.run(third);
    expect(third.ran).toHaveLength(SYNC_MS);
    await tasks();
    for (const work of [first, second, third]) expect(work.ran).toHaveLength(10);
  });

  it('counts the time in its steps only: a render draws other blocks between its code blocks', () => {
    const first = block(2, 1);
    slices.run(first);
    clock += 50;
    const second = block(2, 1);
    slices.run(second);
    expect(second.ran).toHaveLength(2);
  });

  it('gives a block up past its budget: it stops, and is told once', async () => {
    const slow = block(1000, 3, 50);
    const next = block(3, 1);
    slices.run(slow);
    slices.run(next);
    await tasks();
    expect(slow.gaveUp).toBe(1);
    expect(slow.ran.length).toBe(Math.floor(50 / 3) + 1);
    expect(next.ran).toHaveLength(3);
  });

  it('counts at most STEP_CHARGE_MS of a step: one slow step (a garbage collection, a first use) is not the code', async () => {
    const once = block(2, 200, 100);
    slices.run(once);
    await tasks();
    expect(once.gaveUp).toBe(0);
    expect(once.spent).toBe(2 * STEP_CHARGE_MS);
  });

  it('counts a block time across its draws (a streamed block is drawn again every frame)', async () => {
    const work = block(5, 4, 30);
    for (let frame = 0; frame < 4; frame++) {
      work.ran.length = 0;
      slices.run(work);
      await tasks();
    }
    expect(work.gaveUp).toBe(1);
  });

  it('drops the work of a block no longer shown', async () => {
    const work = block(100, 1);
    slices.run(work);
    const before = work.ran.length;
    work.shown = false;
    await tasks();
    expect(work.ran.length).toBe(before);
    expect(vi.getTimerCount()).toBe(0);
  });
});
