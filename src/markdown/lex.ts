/**
 * marked's Lexer under budgets. marked is used unpatched, but agent text is untrusted and
 * its lexer is not built for hostile input: a few KB of nested quotes, list markers or
 * emphasis overflow its recursive descent (`RangeError: Maximum call stack size exceeded`),
 * and delimiter-dense runs (`a_b_a_b_…`, `</<!--<!--…`, `*a*a*a…`) make its inline pass
 * quadratic: seconds of main thread for tens of KB. So the input is measured and limited
 * before marked sees it, and whatever exceeds a limit is shown as plain text:
 *
 * - **Nesting**: a line inside more than `depth` containers (quotes, list items) takes the
 *   paragraph around it (up to the blank lines) to plain text; an inline run with more than
 *   `depth` open emphasis or link brackets is plain text.
 * - **Size**: marked's block pass sees at most `chunkChars` at a time (the source is cut at
 *   blank lines, else at line ends, outside fenced code), and a block (paragraph, list,
 *   table…) longer than `blockChars` is plain text. Fenced code is exempt: lexing it is linear.
 * - **Work**: an inline run with more than `delimiters` emphasis/link/code delimiters is
 *   lexed in pieces of about `inlineChars`, cut where no emphasis or link is open, so the
 *   quadratic part is bounded by the piece. Each piece is charged delimiters × length;
 *   past `work` per block (about 2 KB of the densest text, many times any prose), the
 *   remaining pieces are plain text. `blockMs` is the same cut by the clock, a last resort
 *   that ordinary text never reaches.
 * - **Errors**: anything marked throws turns that chunk or run into plain text.
 *
 * Each limit is far above what a reply meant for reading reaches (SECURITY.md lists them
 * and what the reader sees), and all but the last-resort clock are deterministic: the
 * same text renders the same on a fast and a slow machine. `plain` tokens are this module's own: a block whose raw text
 * is shown as it is, line breaks kept.
 */
import { getDefaults, Lexer, Tokenizer, type MarkedOptions, type Token, type Tokens, type TokensList } from './vendor/marked.js';
import { warnOnce } from '../warn.js';
import { PLAIN_CHARS, plainBlocks } from './tokens.js';

export const LIMITS = {
  depth: 32,
  chunkChars: 16_384,
  blockChars: 16_384,
  delimiters: 64,
  inlineChars: 1_024,
  work: 1_000_000,
  messageWork: 8_000_000,
  blockMs: 200,
  plainChars: PLAIN_CHARS,
} as const;

/** Why a part of a reply is plain text, in the console once per reason. */
const warnPlain = (reason: string): void => warnOnce(`part of a reply is shown as plain text (${reason}); see SECURITY.md "Limits".`);

// Without an html block tokenizer a `<textarea>` or `<!--` opener is an inline token of a
// paragraph instead of a block running to its closing tag: the markdown after it still
// renders. Inline HTML stays a token either way; the default walk shows it as text.
class TextOnlyTokenizer extends Tokenizer {
  override html(): undefined {
    return undefined;
  }
}

// The vendored lexer fixes the options these leave at marked's defaults (scripts/vendor-marked.ts
// `FIXED_OPTIONS`): a lexer that changes one must drop it there.
const lexerOptions: MarkedOptions[] = [];

function createLexer(allowHtml: boolean): Lexer {
  const options = (lexerOptions[+allowHtml] ??= Object.assign(getDefaults(), {
    gfm: true,
    tokenizer: allowHtml ? new Tokenizer() : new TextOnlyTokenizer(),
  }));
  return new Lexer(options);
}

// --- block chunks --------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
  start: number;
  end: number;
  /** Blank (only spaces/tabs) and outside fenced code: a safe place to cut. */
  blank: boolean;
  /** No fenced code is open after this line: its end is a place to cut when nothing better is near. */
  cut: boolean;
  depth: number;
}

const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** Containers a line opens: `>` and list markers, with indentation counted as nesting. */
export function lineDepth(src: string, start: number, end: number): number {
  // `* * * * …` is one horizontal rule, not nested lists.
  if (/[-*_]/.test(src[start] ?? '') || src[start] === ' ') {
    if (THEMATIC_BREAK.test(src.slice(start, end))) return 0;
  }
  let i = start;
  let depth = 0;
  let indent = 0;
  for (;;) {
    let spaces = 0;
    while (i < end && (src[i] === ' ' || src[i] === '\t')) spaces += src[i++] === '\t' ? 4 : 1;
    const c = src[i];
    let marker = 0;
    if (c === '>') marker = 1;
    else if ((c === '-' || c === '+' || c === '*') && (i + 1 === end || src[i + 1] === ' ' || src[i + 1] === '\t')) marker = 1;
    else if (c !== undefined && c >= '0' && c <= '9') {
      let j = i;
      while (j < end && j - i < 10 && src[j]! >= '0' && src[j]! <= '9') j++;
      if ((src[j] === '.' || src[j] === ')') && (j + 1 === end || src[j + 1] === ' ' || src[j + 1] === '\t')) marker = j - i + 1;
    }
    if (!marker || i >= end) break;
    depth++;
    indent += spaces;
    i += marker;
  }
  // A nested list is indented by at least two columns per level.
  return depth ? depth + (indent >> 1) : 0;
}

function scanLines(src: string): Line[] {
  const lines: Line[] = [];
  let fence: { char: string; length: number } | null = null;
  for (let start = 0; start < src.length;) {
    const nl = src.indexOf('\n', start);
    const end = nl < 0 ? src.length : nl;
    const next = nl < 0 ? src.length : nl + 1;
    const text = src.slice(start, Math.min(end, start + 64));
    const open = fence === null;
    const mark = FENCE.exec(text);
    if (fence) {
      if (
        mark &&
        mark[1]![0] === fence.char &&
        mark[1]!.length >= fence.length &&
        !src
          .slice(start, end)
          .trim()
          .replace(/^[`~]+/, '')
      ) {
        fence = null;
      }
    } else if (mark && !(mark[1]![0] === '`' && src.slice(start + mark[0].length, end).includes('`'))) {
      fence = { char: mark[1]![0]!, length: mark[1]!.length };
    }
    const blank = open && !fence && !/\S/.test(src.slice(start, end));
    // Depth on every line, fenced or not: where this scan and marked disagree about a fence,
    // the nesting limit must still hold.
    lines.push({ start, end: next, blank, cut: !fence, depth: lineDepth(src, start, end) });
    start = next;
  }
  return lines;
}

interface Chunk {
  start: number;
  end: number;
  plain: boolean;
}

/**
 * Cuts the source into pieces for marked's block pass: paragraphs (runs of lines between
 * blank lines) holding a too deeply nested line become plain chunks; the others are joined
 * up to `chunkChars`, and a longer one is cut at line ends outside fenced code.
 */
function chunksOf(src: string): Chunk[] {
  const lines = scanLines(src);
  if (src.length <= LIMITS.chunkChars && !lines.some((l) => l.depth > LIMITS.depth)) {
    return [{ start: 0, end: src.length, plain: false }];
  }
  // Paragraph groups: up to and including the blank lines that end them.
  const groups: Array<{ start: number; end: number; deep: boolean; lines: Line[] }> = [];
  let group: (typeof groups)[number] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    group ??= { start: line.start, end: line.end, deep: false, lines: [] };
    group.lines.push(line);
    group.end = line.end;
    if (line.depth > LIMITS.depth) group.deep = true;
    if (line.blank && !lines[i + 1]?.blank) {
      groups.push(group);
      group = null;
    }
  }
  if (group) groups.push(group);

  const chunks: Chunk[] = [];
  const add = (start: number, end: number, isPlain: boolean): void => {
    const last = chunks.at(-1);
    if (last && last.plain === isPlain && (isPlain || end - last.start <= LIMITS.chunkChars)) last.end = end;
    else chunks.push({ start, end, plain: isPlain });
  };
  for (const g of groups) {
    if (g.deep || g.end - g.start <= LIMITS.chunkChars) {
      add(g.start, g.end, g.deep);
      continue;
    }
    // One long paragraph group: cut at line ends outside fenced code.
    let from = g.start;
    let cut = -1;
    for (const line of g.lines) {
      if (line.end - from > LIMITS.chunkChars && cut > from) {
        add(from, cut, false);
        from = cut;
      }
      if (line.cut) cut = line.end;
    }
    add(from, g.end, false);
  }
  return chunks;
}

// --- inline runs ---------------------------------------------------------------------------

const WS = /\s/;
const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u;

interface InlineScan {
  /** Deepest nesting of open emphasis runs and link brackets (an upper bound). */
  depth: number;
  delimiters: number;
}

/** One linear pass: how deep emphasis and brackets nest, and how many delimiters there are. */
function scanInline(src: string, from = 0, to = src.length): InlineScan {
  let depth = 0;
  let max = 0;
  let delimiters = 0;
  for (let i = from; i < to; i++) {
    const c = src[i]!;
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      delimiters++;
      if (++depth > max) max = depth;
    } else if (c === ']') {
      delimiters++;
      if (depth) depth--;
    } else if (c === '*' || c === '_' || c === '~') {
      let n = 1;
      while (src[i + n] === c) n++;
      delimiters++;
      const before = i > from ? src[i - 1]! : ' ';
      const after = i + n < to ? src[i + n]! : ' ';
      const left = !WS.test(after) && (!PUNCT.test(after) || WS.test(before) || PUNCT.test(before));
      const right = !WS.test(before) && (!PUNCT.test(before) || WS.test(after) || PUNCT.test(after));
      if (left && !right) {
        if (++depth > max) max = depth;
      } else if (right && !left && depth) {
        depth--;
      }
      i += n - 1;
    } else if (c === '`' || c === '<' || c === '!') {
      delimiters++;
    }
  }
  return { depth: max, delimiters };
}

/**
 * Where to cut a delimiter-dense run into pieces of about `inlineChars`: at a space or line
 * end where no bracket is open and every emphasis and code delimiter has its pair, else at
 * the last space, else anywhere (never inside a surrogate pair). Depends only on the text
 * before each cut, so a run that grows while streaming keeps its earlier cuts.
 */
function pieces(src: string): string[] {
  const out: string[] = [];
  let from = 0;
  while (src.length - from > LIMITS.inlineChars) {
    const limit = from + LIMITS.inlineChars;
    let balanced = -1;
    let space = -1;
    let brackets = 0;
    /** One bit per delimiter character seen an odd number of times. */
    let odd = 0;
    for (let i = from; i < limit; i++) {
      const c = src[i];
      if (c === '\\') i++;
      else if (c === '[' || c === '(') brackets++;
      else if ((c === ']' || c === ')') && brackets) brackets--;
      else if (c === '*') odd ^= 1;
      else if (c === '_') odd ^= 2;
      else if (c === '~') odd ^= 4;
      else if (c === '`') odd ^= 8;
      else if (c === ' ' || c === '\n') {
        space = i + 1;
        if (!brackets && !odd) balanced = i + 1;
      }
    }
    let cut = balanced > from + LIMITS.inlineChars / 2 ? balanced : space > from ? space : limit;
    // Never between a backslash and what it escapes, or inside a surrogate pair.
    const code = src.charCodeAt(cut - 1);
    if ((code >= 0xd800 && code <= 0xdbff) || code === 0x5c) cut++;
    out.push(src.slice(from, cut));
    from = cut;
  }
  out.push(src.slice(from));
  return out;
}

const plainInline = (text: string): Tokens.Generic => ({ type: 'plain', raw: text, text });

/** What the inline pass may still spend: per block, and per message (`total`). */
interface Budget {
  work: number;
  deadline: number;
  total: { work: number };
}

/**
 * One run of inline source into `tokens`, within the limits. Every run is charged its
 * delimiters times its length (marked's worst case for it) against the message's budget;
 * a delimiter-dense run is lexed in pieces, each also charged against its block's budget.
 * Once a budget is spent, or the block's time as a last resort, the rest is plain text.
 * Ordinary replies spend a small fraction and are never cut or timed.
 */
function lexInline(lexer: Lexer, src: string, tokens: Token[], budget: Budget): void {
  const scan = scanInline(src);
  const parts = scan.delimiters > LIMITS.delimiters && src.length > LIMITS.inlineChars ? pieces(src) : [src];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const partScan = parts.length > 1 ? scanInline(part) : scan;
    const cost = partScan.delimiters * part.length;
    budget.total.work -= cost;
    if (parts.length > 1) budget.work -= cost;
    const over = budget.work < 0 || budget.total.work < 0;
    if (over || (parts.length > 1 && performance.now() > budget.deadline)) {
      warnPlain(over ? 'work' : 'time');
      tokens.push(plainInline(parts.slice(i).join('')));
      return;
    }
    if (partScan.depth > LIMITS.depth) {
      warnPlain('nesting');
      tokens.push(plainInline(part));
      continue;
    }
    try {
      lexer.inlineTokens(part, tokens);
    } catch {
      warnPlain('error');
      // marked keeps what it was in when it threw; the next run starts clean.
      lexer.state.inLink = lexer.state.inRawBlock = false;
      tokens.push(plainInline(part));
    }
  }
}

/**
 * Maps the inline token arrays of `token` (the inline queue fills them) to `block`, and
 * returns how deep its containers (quotes, lists, items) nest.
 */
function own(token: Tokens.Generic, block: number, owners: Map<Token[], number>): number {
  if (token.tokens) owners.set(token.tokens, block);
  let depth = 0;
  for (const child of (token.tokens ?? []) as Tokens.Generic[]) depth = Math.max(depth, own(child, block, owners));
  if (token.type === 'list') for (const item of token.items as Tokens.Generic[]) depth = Math.max(depth, own(item, block, owners));
  if (token.type === 'table') {
    for (const cell of [...(token.header as Tokens.TableCell[]), ...(token.rows as Tokens.TableCell[][]).flat()])
      owners.set(cell.tokens, block);
  }
  return depth + (token.type === 'blockquote' || token.type === 'list_item' ? 1 : 0);
}

/**
 * Lexes GFM markdown into block tokens within the limits above; `links` puts earlier link
 * definitions in scope. Never throws. Blocks may be `plain` tokens.
 */
export function lexMarkdown(src: string, allowHtml: boolean, links?: TokensList['links']): TokensList {
  const tokens = [] as unknown as TokensList;
  tokens.links = Object.assign(Object.create(null) as TokensList['links'], links);
  // A lexer per chunk: marked leaves its state (inside a link, not at the top level) as it
  // was when it threw, which would garble every chunk after a failed one.
  const runs: Array<[Lexer, Lexer['inlineQueue'][number]]> = [];
  for (const chunk of chunksOf(src)) {
    const text = src.slice(chunk.start, chunk.end);
    if (chunk.plain) {
      warnPlain('nesting');
      tokens.push(...plainBlocks(text));
      continue;
    }
    const lexer = createLexer(allowHtml);
    lexer.tokens.links = tokens.links; // definitions from every chunk serve every chunk
    try {
      tokens.push(...lexer.blockTokens(text, []));
      for (const run of lexer.inlineQueue) runs.push([lexer, run]);
    } catch {
      warnPlain('error');
      tokens.push(...plainBlocks(text));
    }
  }

  // Which block each inline run belongs to (each block has its own budget). Blocks too
  // long or (past what the line scan caught) too deep become plain text, and their runs
  // (owner -1) are not lexed at all.
  const owners = new Map<Token[], number>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Tokens.Generic;
    const depth = own(token, i, owners);
    const tooLong = token.type !== 'code' && token.type !== 'plain' && token.raw.length > LIMITS.blockChars;
    if (tooLong || depth > LIMITS.depth) {
      warnPlain(tooLong ? 'size' : 'nesting');
      own(token, -1, owners);
      const pieces = plainBlocks(token.raw);
      tokens.splice(i, 1, ...pieces);
      i += pieces.length - 1;
    }
  }

  let block = -1;
  const total = { work: LIMITS.messageWork };
  let budget: Budget = { work: 0, deadline: 0, total };
  for (const [lexer, { src: run, tokens: into }] of runs) {
    const owner = owners.get(into) ?? -2;
    if (owner === -1) continue;
    if (owner !== block || owner < 0) {
      block = owner;
      budget = { work: LIMITS.work, deadline: performance.now() + LIMITS.blockMs, total };
    }
    lexer.state.inRawBlock = false;
    lexInline(lexer, run, into, budget);
  }
  return tokens;
}
