/**
 * Text as Markdown to keep in a file (a saved transcript, src/export/), as safe as the view
 * and read back as the view shows it:
 * - `literalMarkdown` / `escapeMarkdown`: text that must read back as typed (the reader's
 *   question, names, titles): every character Markdown could read as syntax is escaped.
 * - `replyMarkdown`: a reply lexed as the view lexes it (lex.ts under its limits) and written
 *   out again from its tokens, so nothing of its source reaches the file as written: links
 *   and images pass the view's URL allow-list (tokens.ts `tokenUrl`) or are their text,
 *   images are links (a file previewed later loads no remote image), the real host follows
 *   link text that shows another (decorate.ts `otherHost`), raw HTML is text, or with
 *   `allow-html` the view's sanitised HTML (blocks.ts `sanitizedBlock`), and headings start
 *   at level 3: levels 1 and 2 are the document's (its title, its speakers).
 * Part of this folder, the one place agent text becomes markup; only the export uses it, so
 * it rides in the export's chunk.
 */
import type { Token, Tokens } from './vendor/marked.js';
import { htmlMode, lexTokens, loadHtmlSupport, loadLexer, normalize, sanitizedBlock } from './blocks.js';
import { guardLinkText, otherHost, visibleText } from './decorate.js';
import { decodeEntities } from './entities.js';
import { inlineText, tokenUrl } from './tokens.js';

type T = Tokens.Generic;

/** The heading level of a reply's `#`: one and two are the transcript's own. */
const SHIFT = 2;

/**
 * `text` with everything Markdown reads as syntax escaped, on one line or several (kept as
 * soft breaks): inline syntax anywhere (emphasis, code, links and images, autolinks and HTML,
 * character references, tables, headings), what only starts a line (list markers, setext
 * and thematic-break lines, a table's delimiter row; `midLine`: `text` does not start one),
 * and the web and mail addresses GFM links by itself (`label`: in a link's text, where
 * there are no links).
 */
export const escapeMarkdown = (text: string, label = false, midLine = false): string =>
  text
    .replace(label ? /[\\`*_~[\]<>&|#]/g : /[\\`*_~[\]<>&|#@]|(?<=https?|ftp):(?=\/\/)|(?<=www)\./gi, (c) =>
      // marked reads a link's text again without its escaped brackets: there, references.
      label && (c === '[' || c === ']') ? `&#${c.charCodeAt(0)};` : `\\${c}`,
    )
    .replace(/(^|\n)([ \t]*)([-+=:]|\d{1,9}(?=[.)]))/g, (line: string, start: string, space: string, mark: string) =>
      !start && midLine ? line : /\d/.test(mark) ? `${start}${space}${mark}\\` : `${start}${space}\\${mark}`,
    );

/**
 * What a reader typed, to read back exactly as typed: `escapeMarkdown`, each line break a
 * hard break, and a line's leading white space as character references (indentation would
 * make code of it, or be dropped).
 */
export function literalMarkdown(text: string): string {
  const lines = escapeMarkdown(normalize(text))
    .split('\n')
    // Blank as Markdown reads it (spaces and tabs only; a no-break space is text): empty.
    .map((line) => (/^[ \t]*$/.test(line) ? '' : line.replace(/^\s+/, (space) => space.replace(/\s/g, (c) => `&#${c.charCodeAt(0)};`))));
  const blank = (line: string | undefined) => !line;
  return lines.map((line, i) => (blank(line) || blank(lines[i + 1]) ? line : `${line}\\`)).join('\n');
}

/**
 * A URL as a link destination in angle brackets, percent-encoded where Markdown could read
 * it otherwise: a `mailto:` or `tel:` URL keeps `<` and `>` as written, which would end the
 * destination early (what follows would be Markdown), `\` would escape the next character,
 * and brackets and parentheses are where some readers (marked among them) end a link.
 */
export const destination = (url: string): string =>
  url.replace(/[<>\\()[\] \t\n\r\f\v]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** Fetches what `replyMarkdown` lexes with, as the view does: the lexer and, for `allow-html`, the sanitiser. */
export async function loadRewrite(allowHtml: boolean): Promise<void> {
  await Promise.all([loadLexer(), allowHtml && loadHtmlSupport()]);
}

/**
 * A reply as Markdown safe to keep (see above). Without the lexer (it could not load) the
 * reply is what the view shows then: prose, or its text as it is, escaped.
 */
export function replyMarkdown(text: string, allowHtml: boolean): string {
  const html = htmlMode({ allowHtml });
  return blocks(lexTokens(normalize(text), html).tokens, html);
}

function blocks(tokens: Token[], html: boolean, tight = false): string {
  return tokens
    .map((token) => (html && hasHtml(token as T) ? htmlBlock(token) : block(token as T)))
    .filter(Boolean)
    .join(tight ? '\n' : '\n\n');
}

const hasHtml = (t: T): boolean =>
  t.type === 'html' ||
  [t.tokens, t.items, t.header, ...((t.rows as T[][] | undefined) ?? [])].some((list) => (list as T[] | undefined)?.some(hasHtml));

/** `text`'s lines after `first` on the first and `rest` on the others (a list item's marker, a quote's `>`). */
const indent = (text: string, first: string, rest: string) =>
  text
    .split('\n')
    .map((line, i) => (i ? (line ? rest + line : rest.trimEnd()) : first + line))
    .join('\n');

/** A run of `char` longer than any in `text` (at least `min`): a code fence or a code span's delimiter. */
function fence(text: string, char: string, min: number): string {
  let longest = 0;
  for (const run of text.match(new RegExp(`\\${char}+`, 'g')) ?? []) longest = Math.max(longest, run.length);
  return char.repeat(Math.max(min, longest + 1));
}

function block(t: T): string {
  switch (t.type) {
    case 'paragraph':
      return inline(t.tokens).replace(/^[ \t]+/, '');
    case 'heading':
      return `${'#'.repeat(Math.min(6, (t.depth as number) + SHIFT))} ${inline(t.tokens, false, false).replace(/\\?\n/g, ' ')}`;
    case 'code': {
      // Indented by three spaces (as the fence may be): no line of code starts a line of the file.
      const code = (t.text as string).replace(/\n$/, '');
      const mark = fence(code, '`', 3);
      const lang = /^[\w+#.-]*/.exec(decodeEntities((t.lang as string | undefined) ?? ''))![0];
      return indent(`${mark}${lang}\n${code ? `${code}\n` : ''}${mark}`, '   ', '   ');
    }
    case 'blockquote':
      return indent(blocks(t.tokens!, false), '> ', '> ');
    case 'list': {
      const start = typeof t.start === 'number' ? t.start : 1;
      const items = (t.items as Tokens.ListItem[]).map((item, i) => {
        const marker = t.ordered ? `${start + i}.` : '-';
        const [first, ...others] = item.tokens as T[];
        const box = first?.type === 'checkbox' ? (first.checked ? '☑ ' : '☐ ') : '';
        const body = blocks(box ? others : item.tokens, false, !t.loose);
        return indent(box + body, `${marker} `, ' '.repeat(marker.length + 1));
      });
      return items.join(t.loose ? '\n\n' : '\n');
    }
    case 'table': {
      const table = t as unknown as Tokens.Table;
      const row = (cells: Tokens.TableCell[]) =>
        `| ${cells.map((cell) => inline(cell.tokens, false, false).replace(/\\?\n/g, ' ')).join(' | ')} |`;
      const rule = table.header.map((cell) =>
        cell.align === 'center' ? ':-:' : cell.align === 'left' ? ':--' : cell.align === 'right' ? '--:' : '---',
      );
      return [row(table.header), `| ${rule.join(' | ')} |`, ...table.rows.map(row)].join('\n');
    }
    case 'hr':
      return '---';
    case 'text':
      return t.tokens ? inline(t.tokens) : escapeMarkdown(decodeEntities(t.text as string));
    case 'checkbox':
      return t.checked ? '☑' : '☐';
    case 'html': // not sanitised (blocks: without `allow-html`): text, as the view shows it
    case 'plain': // over a limit of lex.ts: its text as it is
      return literalMarkdown(t.text as string);
    default: // space, def: nothing to show
      return '';
  }
}

/** Inline tokens as Markdown (`inLink`: a link's text; `lineStart`: they start a line). */
function inline(tokens: Token[] | undefined, inLink = false, lineStart = true): string {
  let out = '';
  for (const token of tokens ?? []) {
    const piece = inlineOne(token as T, inLink, out ? out.endsWith('\n') : lineStart);
    // A `!` the view shows before a link would make an image of it.
    out = (out.endsWith('!') && piece.startsWith('[') ? `${out.slice(0, -1)}\\!` : out) + piece;
  }
  return out;
}

function inlineOne(t: T, inLink: boolean, lineStart: boolean): string {
  // Text of the reply: escaped (in a link's text, without invisible characters, as the view shows it).
  const text = (value: string) => escapeMarkdown(inLink ? visibleText(value) : value, inLink, !lineStart);
  switch (t.type) {
    case 'strong':
      return `**${inline(t.tokens, inLink, false)}**`;
    case 'em':
      return `*${inline(t.tokens, inLink, false)}*`;
    case 'del':
      return `~~${inline(t.tokens, inLink, false)}~~`;
    case 'codespan': {
      // On one line: a code span's line breaks read as spaces anyway, and none may start a line.
      const code = (t.text as string).replace(/\n/g, ' ');
      if (!code) return '';
      const mark = fence(code, '`', 1);
      const pad = /^[` ]|[` ]$/.test(code) && code.trim() ? ' ' : '';
      return `${mark}${pad}${code}${pad}${mark}`;
    }
    case 'br':
      return inLink ? ' ' : '\\\n';
    case 'link': {
      const link = t as unknown as Tokens.Link;
      const inner = link.autolink ? escapeMarkdown(visibleText(link.text), true) : inline(link.tokens, true, false);
      const href = tokenUrl(link);
      if (href === null || inLink) return inner;
      return linkTo(link.autolink ? link.text : inlineText(link.tokens), href, inner);
    }
    case 'image': {
      // A link to the image, not the image: a file previewed later loads nothing remote.
      const image = t as unknown as Tokens.Image;
      const alt = inlineText(image.tokens);
      const src = tokenUrl(image);
      return src === null || inLink ? text(alt) : linkTo(alt || src, src, escapeMarkdown(visibleText(alt || src), true));
    }
    case 'checkbox':
      return t.checked ? '☑ ' : '☐ ';
    case 'escape':
    case 'html': // not sanitised: text, as the view shows it
    case 'plain':
      return text(t.text as string);
    default: // text
      return t.tokens ? inline(t.tokens, inLink, lineStart) : text(decodeEntities(t.text as string));
  }
}

/** A link with `label` (Markdown) to `href`, and the real host after a `text` that shows another (decorate.ts `otherHost`). */
function linkTo(text: string, href: string, label: string): string {
  const host = otherHost(text, href);
  return `[${label}](<${destination(href)}>)${host ? ` (${escapeMarkdown(host)})` : ''}`;
}

/**
 * A block with raw HTML, `allow-html`: as the view shows it (the walk's HTML through the
 * sanitiser), images as links, headings from level 3, on one line inside a `<div>` (one HTML
 * block: no blank line in it can end it and let what follows be read as Markdown).
 */
function htmlBlock(token: Token): string {
  const fragment = sanitizedBlock([token]);
  if (!fragment) return block(token as T);
  const box = document.createElement('div');
  box.append(fragment);
  for (const image of Array.from(box.querySelectorAll('img'))) {
    const src = image.getAttribute('src');
    const alt = image.getAttribute('alt') ?? '';
    if (!src || image.closest('a')) image.replaceWith(alt);
    else {
      const link = document.createElement('a');
      link.setAttribute('href', src);
      link.textContent = alt || src;
      image.replaceWith(link);
    }
  }
  for (const heading of Array.from(box.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const lower = document.createElement(`h${Math.min(6, Number(heading.tagName[1]) + SHIFT)}`);
    lower.append(...Array.from(heading.childNodes));
    heading.replaceWith(lower);
  }
  for (const link of Array.from(box.querySelectorAll('a[href]'))) guardLinkText(link as HTMLAnchorElement);
  return `<div>${box.innerHTML.replace(/\n/g, '&#10;')}</div>`;
}
