/**
 * Where a block of code is cut: into pieces for the highlighter, and into the blocks plain code
 * is drawn in (DOM-free; test/unit/highlight.test.ts).
 *
 * highlight.js reads a piece of code with one regular expression per state, tried at each
 * position, and several grammars backtrack on short repeated inputs: for C, C++, C# and Java
 * the time of one call grows about 4x per doubling of what it reads (BENCHMARKS.md
 * "Highlighted code": 80 KB in one call took 13–24 s in Node). A call cannot be interrupted,
 * so the only bound on it is a bound on what it reads: no call reads more than PIECE_CHARS.
 */

/**
 * The most characters one highlighting call reads. The worst inputs found (scripts/
 * bench-highlight.ts searches short repeated fragments in every grammar) cost about 1.5 ms
 * at 512 characters on the 2-core bench machine, 15 ms at 1,024 and 100 ms at 2,048.
 */
export const PIECE_CHARS = 512;

/**
 * The end of the piece of `text` that starts at `from` (a line start), at most `to`: after
 * the first blank line that a line with text follows (where the grammar is most likely back
 * at its top level), or at the last line end that keeps the piece within PIECE_CHARS. Never
 * inside a line: a line longer than PIECE_CHARS is a piece of its own (it stays plain). A cut
 * depends only on the text before it, so a growing text keeps its pieces but the last.
 */
export function pieceEnd(text: string, from: number, to: number): number {
  let end = from;
  let afterBlank = false;
  while (end < to) {
    const next = Math.min(text.indexOf('\n', end) + 1 || to, to);
    const blank = isBlank(text, end, next);
    if (end > from && ((afterBlank && !blank) || next - from > PIECE_CHARS)) break;
    afterBlank = blank;
    end = next;
  }
  return end;
}

/** Whether text[from, to) is a blank line: spaces and tabs at most, and its line break. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text[i] !== ' ' && text[i] !== '\t' && text[i] !== '\n') return false;
  return true;
}

/**
 * Plain code (a language without a grammar, a block past its budget) is drawn in blocks of at
 * most this many characters, cut at line ends (a longer line is a block of its own): a frame
 * lays out the block being written, not all the code before it. As one text node, an 80 KB
 * block was laid out whole every frame (10 tasks over 50 ms; BENCHMARKS.md "plain code in
 * blocks").
 */
export const PLAIN_CHARS = 2_048;

/**
 * The end of the plain block of `text` that starts at `from` (a line start), once more than
 * PLAIN_CHARS follow it: the last line end within PLAIN_CHARS, else the end of the longer
 * line; `from` while no block is due (what follows is drawn as it is). A cut depends only on
 * the text before it, so a growing text keeps its blocks.
 */
export function plainEnd(text: string, from: number): number {
  if (text.length - from <= PLAIN_CHARS) return from;
  const end = text.lastIndexOf('\n', from + PLAIN_CHARS - 1) + 1;
  return end > from ? end : text.indexOf('\n', from) + 1 || from;
}
