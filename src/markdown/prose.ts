/**
 * Prose without markdown, lexed without marked. Most welcomes and questions are a few
 * sentences with nothing marked would read as syntax, and the lexer (marked and lex.ts's
 * budgets, a third of the panel's code) is a chunk of its own (src/chunks.ts `lexer`): a
 * page that shows only such text fetches it only once the reader turns to the text field
 * (a first visit's welcome, a launcher not yet opened), and a render of such text never
 * waits for it.
 *
 * The tokens are the very ones marked makes of such text, field for field (paragraphs
 * between blank lines, `space` tokens for the blank lines), so what is drawn from them does
 * not change when the lexer arrives; test/unit/prose.test.ts holds them to marked's with
 * random text. The test errs toward the lexer: any character that can start syntax anywhere
 * (emphasis, code, links and autolinks, HTML, entities, escapes, tables, strikethrough) or
 * at a line's start (headings, lists, quotes, setext underlines, indented code, a table's
 * delimiter row such as `:-`, which needs no pipe), and any
 * blank-looking line or line-end space, sends the text to the lexer.
 */
import type { Token } from './vendor/marked.js';

const SYNTAX = /[\\`*_~[\]<>&|@]|:\/\/|www\.|^[ \t#=+>-]|^:-|^\d+[.)]|[ \t]$/im;

/**
 * Longer text, or text with more `!` (an image's opener, which lex.ts counts against its
 * work budgets), goes to the lexer: within these, none of its limits (lex.ts `LIMITS`) can
 * be reached (64 × 4,096 is far below the message's work budget, and no run is cut).
 */
const PROSE_CHARS = 4_096;
const PROSE_BANGS = 64;

/** Whether `src` is prose without markdown (see above): drawn as it will be without the lexer. */
export const isProse = (src: string): boolean => src.length <= PROSE_CHARS && !SYNTAX.test(src) && src.split('!').length <= PROSE_BANGS + 1;

/** marked's tokens for `src` when it is prose without markdown, else null. */
export function proseTokens(src: string): Token[] | null {
  if (!isProse(src)) return null;
  const tokens: Token[] = [];
  // Paragraphs and the runs of blank lines between them; a single line break at the very
  // start is a blank line too, at the very end part of the last paragraph.
  for (const piece of src.split(/(^\n+|\n\n+)/)) {
    if (!piece) continue;
    if (piece[0] === '\n') {
      tokens.push({ type: 'space', raw: piece });
      continue;
    }
    const text = piece.endsWith('\n') ? piece.slice(0, -1) : piece;
    tokens.push({ type: 'paragraph', raw: piece, text, tokens: [{ type: 'text', raw: text, text, escaped: false }] });
  }
  return tokens;
}
