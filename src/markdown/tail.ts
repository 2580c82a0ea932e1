/**
 * "Complete the tail": while a reply streams, the last markdown block is usually cut in the
 * middle of some syntax. Rendered as is, `**bo` shows two asterisks that vanish a token
 * later, `[text](ht` shows brackets, a table header shows pipes until its delimiter row
 * arrives. `completeTail` rewrites ONLY the last block's source so that what is shown is
 * already what it will become: open emphasis and code spans are closed, a dangling opener
 * is hidden, a half-typed link shows its text, half a table is held back.
 *
 * It guesses only about the line being typed. A line break settles the line before it: from
 * then on the text is shown as it is, so an opener that nothing has closed by the end of its
 * line shows as typed (as it will when the reply ends there) until a closer arrives. That is
 * what makes the DOM after a reply's last delta the settled DOM (for every CommonMark
 * example; test/render/commonmark.test.ts), with one deliberate exception: a line starting
 * with a pipe waits for a table's delimiter row even after its line break, because a table
 * flashing as a paragraph of pipes is far likelier than a reply ending in such a line.
 *
 * Otherwise it is a best-effort heuristic: once the stream ends the block is rendered from
 * its real source, so a wrong guess costs a frame, never the final result.
 */

/** `typing`: the last line is being typed; `line`: it has its line break (see blocks.ts). */
export type TypingTail = 'typing' | 'line';

/** `type`: of the marked token the tail belongs to (`paragraph`, `code`, `table`, `list`…). */
export function completeTail(raw: string, type: string, tail: TypingTail): string {
  if (type === 'html' || type === 'hr' || type === 'def' || type === 'space' || type === 'plain') return raw;
  if (tail === 'line') return type === 'code' || type === 'table' ? raw : hideTableStart(raw);
  if (type === 'code') return completeCode(raw);

  let text = hideMarkerLine(raw);
  text = type === 'table' ? hideEmptyRow(text) : hideTableStart(text);

  const segStart = type === 'table' ? text.lastIndexOf('\n') + 1 : segmentStart(text);
  const head = text.slice(0, segStart);
  let seg = text.slice(segStart);
  seg = completeLinks(seg);
  seg = completeInline(seg);
  return head + seg;
}

// An unclosed fence already renders as code up to the end; only a closing fence that is
// still being typed (``` arriving one backtick at a time) would flash inside the code.
function completeCode(raw: string): string {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
  if (!open) return raw;
  const lines = raw.split('\n');
  if (lines.length < 2) return raw;
  const last = lines[lines.length - 1]!;
  const fenceChar = open[1]![0]!;
  const closing = new RegExp(`^ {0,3}\\${fenceChar}+[ \\t]*$`).exec(last);
  if (!closing) return raw;
  const run = last.trim().length;
  if (run >= open[1]!.length) return raw; // a real closing fence
  return lines.slice(0, -1).join('\n');
}

// A last line holding only a list marker, heading hashes or a run of `-`/`=` is about to
// become a list item, a heading or a setext underline; shown now it would flash an empty
// bullet or turn the paragraph above into a heading for a moment.
function hideMarkerLine(text: string): string {
  const nl = text.lastIndexOf('\n');
  const last = text.slice(nl + 1);
  if (/^[ \t]*(?:>[ \t]*)*(?:[-+*]|\d{1,9}[.)]|#{1,6}|[-=]+|[*_]{2,})?[ \t]*$/.test(last) && last.trim() !== '') {
    return nl < 0 ? '' : text.slice(0, nl);
  }
  return text;
}

// A table header row without its delimiter row is a paragraph full of pipes; hold the
// header back until marked can see it is a table.
function hideTableStart(text: string): string {
  const lines = text.split('\n');
  // The header's own line break has arrived, the delimiter row not yet.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let first = lines.length;
  while (first > 0 && /^ {0,3}\|/.test(lines[first - 1]!)) first--;
  const rows = lines.length - first;
  if (rows === 0 || rows > 2) return text;
  if (rows === 2 && !/^ {0,3}\|[\s|:-]*$/.test(lines[lines.length - 1]!)) return text;
  return lines.slice(0, first).join('\n');
}

// A row just begun (`|`, `| `) would show as a row of empty cells until its first cell
// arrives; hold it back.
function hideEmptyRow(text: string): string {
  const nl = text.lastIndexOf('\n');
  return nl > 0 && /^ {0,3}\|[ \t|]*$/.test(text.slice(nl + 1)) ? text.slice(0, nl) : text;
}

// Emphasis and code spans can run across lines of one paragraph, but not across list
// items, blank lines or quote markers: scan from the last such boundary only.
function segmentStart(text: string): number {
  const boundary = /\n(?:[ \t]*\n|[ \t]*(?:>[ \t]*)*(?:[-+*]|\d{1,9}[.)])[ \t]|[ \t]*>)/g;
  let start = 0;
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) start = m.index + 1;
  return start;
}

function completeLinks(seg: string): string {
  // Brackets that are escaped or inside a code span are text, not link syntax: the patterns
  // below run on a copy where those are blanked, and cut the real text where they match.
  const syntax = blankLiterals(seg);
  // Images appear only when their URL is complete: a half URL would be fetched.
  const image = /!\[[^\]]*(?:\](?:\([^)]*)?)?$/.exec(syntax);
  if (image) return seg.slice(0, image.index);
  // `[text](ur`, `[text]` and `[text`: show the text, not the brackets.
  const link = /\[([^\][]*)(?:\](?:\([^)]*)?)?$/.exec(syntax);
  if (link) return seg.slice(0, link.index) + seg.slice(link.index + 1, link.index + 1 + link[1]!.length);
  return seg;
}

/**
 * `seg` with escaped characters and code spans blanked out (the same length). A code span
 * still open runs to the end, as `completeInline` closes it; matching stops there, so the
 * scan stays linear.
 */
const blankLiterals = (seg: string): string => seg.replace(/\\[^]|(`+)(?:[^]*?[^`]\1(?!`)|[^]*)/g, (literal) => ' '.repeat(literal.length));

const WS = /\s/;
const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u;

interface Run {
  char: string;
  start: number;
  length: number;
}

/**
 * Closes open `*`, `_`, `~` emphasis and backtick code spans at the end of `seg`, and
 * strips a delimiter run that is the very last thing (it cannot be judged yet). Uses the
 * CommonMark flanking rules so `2 * 3` or `snake_case` are not mistaken for openers.
 */
function completeInline(seg: string): string {
  const stack: Run[] = [];
  let trailing: Run | null = null;
  let i = 0;
  while (i < seg.length) {
    const c = seg[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (seg[i + n] === '`') n++;
      const close = findBacktickRun(seg, i + n, n);
      if (close < 0) {
        const rest = seg.slice(i + n);
        // Nothing typed after the opener yet: hide it. Otherwise show the rest as code
        // already; emphasis markers inside it are code, so stop scanning.
        if (!rest.trim()) return closeRuns(seg.slice(0, i).trimEnd(), stack);
        return closeRuns(seg, stack, '`'.repeat(n));
      }
      i = close + n;
      continue;
    }
    if (c === '*' || c === '_' || c === '~') {
      let n = 1;
      while (seg[i + n] === c) n++;
      const before = i > 0 ? seg[i - 1]! : ' ';
      const after = i + n < seg.length ? seg[i + n]! : ' ';
      const left = !WS.test(after) && (!PUNCT.test(after) || WS.test(before) || PUNCT.test(before));
      const right = !WS.test(before) && (!PUNCT.test(before) || WS.test(after) || PUNCT.test(after));
      const canOpen = c === '_' ? left && (!right || PUNCT.test(before)) : left;
      const canClose = c === '_' ? right && (!left || PUNCT.test(after)) : right;
      const run: Run = { char: c, start: i, length: n };
      let remaining = n;
      if (canClose) {
        for (let k = stack.length - 1; k >= 0 && remaining > 0; k--) {
          const opener = stack[k]!;
          if (opener.char !== c) continue;
          const used = Math.min(opener.length, remaining);
          opener.length -= used;
          remaining -= used;
          // Openers inside the matched pair can no longer close anything.
          stack.length = opener.length > 0 ? k + 1 : k;
          break;
        }
      }
      if (remaining > 0 && canOpen) stack.push({ ...run, length: remaining });
      trailing = remaining === n && !canOpen && !seg.slice(i + n).trim() ? run : null;
      i += n;
      continue;
    }
    i++;
  }
  if (trailing) seg = seg.slice(0, trailing.start);
  return closeRuns(seg, stack);
}

function findBacktickRun(seg: string, from: number, n: number): number {
  for (let i = from; i < seg.length; i++) {
    if (seg[i] !== '`') continue;
    let m = 1;
    while (seg[i + m] === '`') m++;
    if (m === n) return i;
    i += m - 1;
  }
  return -1;
}

function closeRuns(seg: string, stack: Run[], prefix = ''): string {
  // An opener at the very end has no content yet: drop it instead of closing it, or the
  // result would be an empty `****` shown literally.
  while (stack.length && !seg.slice(stack[stack.length - 1]!.start + stack[stack.length - 1]!.length).trim()) {
    seg = seg.slice(0, stack.pop()!.start);
  }
  if (!stack.length && !prefix) return seg;
  // A closer must touch the text to be right-flanking: `**bold **` stays literal.
  let out = prefix ? seg + prefix : seg.trimEnd();
  for (let k = stack.length - 1; k >= 0; k--) {
    const run = stack[k]!;
    if (run.start >= out.length) continue;
    out += run.char.repeat(run.length);
  }
  return out;
}
