/**
 * Marked's tokens to DOM (the default) or to an HTML string (`allowHtml`, for DOMPurify:
 * html.ts, with the sanitiser's chunk): one walk, two outputs, so both pipelines agree on
 * structure and on the link and image policy by construction. Only this folder turns
 * agent text into markup.
 */
import type { Token, Tokens } from './vendor/marked.js';
import { safeUrl } from '../security/url.js';
import { decodeEntities } from './entities.js';

/** The URL a link or image points at, after the allow-list; null renders no link (a saved transcript asks it too). */
export function tokenUrl(token: Tokens.Link | Tokens.Image): string | null {
  // marked leaves character references in URLs for the HTML parser to decode (autolinks
  // excepted, which are literal). Decode first, so the allow-list judges the real URL.
  return safeUrl((token as Tokens.Link).autolink ? token.href : decodeEntities(token.href));
}

/** A block or inline run shown as literal text: past a limit of lex.ts, or before the lexer is here (blocks.ts). */
export interface PlainToken {
  type: 'plain';
  raw: string;
  text: string;
  /** A later piece of one long plain block (see `plainBlocks`). */
  continued?: true;
}

/** The longest piece of plain text one block holds (SECURITY.md "Limits"). */
export const PLAIN_CHARS = 2_048;

/**
 * Plain text as block tokens of at most `PLAIN_CHARS` each, cut after a line end or a space
 * when one is near. Each piece is its own block: while a long plain block streams, only
 * its last piece is laid out again (one 80 KB paragraph took ~25 ms of layout per frame).
 */
export function plainBlocks(raw: string): Token[] {
  const out: Token[] = [];
  for (let from = 0; from < raw.length;) {
    let to = Math.min(raw.length, from + PLAIN_CHARS);
    if (to < raw.length) {
      const window = raw.slice(from + PLAIN_CHARS / 2, to);
      const cut = Math.max(window.lastIndexOf('\n'), window.lastIndexOf(' '));
      if (cut >= 0) to = from + PLAIN_CHARS / 2 + cut + 1;
      else if (/[\ud800-\udbff]/.test(raw[to - 1]!)) to--;
    }
    const piece: PlainToken = { type: 'plain', raw: raw.slice(from, to), text: raw.slice(from, to) };
    if (from > 0) piece.continued = true;
    out.push(piece as Token);
    from = to;
  }
  return out;
}

type Attrs = Record<string, string>;

// Every link opens a new browsing context without an opener; every image loads lazily.
// (The allow-html policy sets the same on links and images of the reply's own HTML.)
export const LINK_ATTRS: Attrs = { target: '_blank', rel: 'noopener noreferrer' };
export const IMAGE_ATTRS: Attrs = { loading: 'lazy' };

/**
 * What the token walk builds with. One walk, two outputs, so both pipelines agree on
 * structure and on the link and image policy by construction.
 */
export interface Out<N> {
  el(tag: string, children?: N[], attrs?: Attrs): N;
  text(text: string): N;
  /** The reply's raw HTML (`html` tokens). */
  html(text: string, block: boolean): N;
}

export type Child = Node | string;

export function el(tag: string, children: Child[] = [], attrs?: Attrs): HTMLElement {
  const node = document.createElement(tag);
  if (attrs) for (const name in attrs) node.setAttribute(name, attrs[name]!);
  node.append(...children);
  return node;
}

/** The default: DOM nodes, raw HTML as text. */
export const toDom: Out<Child> = {
  el,
  text: (text) => text,
  // Raw HTML is text by default: it never reaches an HTML parser, so it cannot run,
  // cannot swallow the rest of the reply and cannot trip host CSP reports.
  html: (text, block) => (block ? el('p', [text]) : text),
};

export function toFragment(children: Child[]): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(...children);
  return frag;
}

export function blockNodes<N>(out: Out<N>, tokens: Token[]): N[] {
  return tokens.flatMap((token) => blockNode(out, token));
}

function blockNode<N>(out: Out<N>, token: Token): N[] {
  const t = token as Tokens.Generic;
  switch (t.type) {
    case 'paragraph':
      return [out.el('p', inlineNodes(out, t.tokens))];
    case 'heading':
      return [out.el(`h${t.depth as number}`, inlineNodes(out, t.tokens))];
    case 'code': {
      // As marked's renderer: one trailing newline, language class from the first word.
      const text = t.text as string;
      const lang = /^\S*/.exec((t.lang as string | undefined) ?? '')![0];
      const code = out.el(
        'code',
        [out.text(text ? text.replace(/\n$/, '') + '\n' : '')],
        lang ? { class: `language-${decodeEntities(lang)}` } : undefined,
      );
      return [out.el('pre', [code])];
    }
    case 'blockquote':
      return [out.el('blockquote', blockNodes(out, t.tokens!))];
    case 'list': {
      const items = (t.items as Tokens.ListItem[]).map((item) => out.el('li', blockNodes(out, item.tokens)));
      return [out.el(t.ordered ? 'ol' : 'ul', items, t.ordered && t.start !== 1 ? { start: String(t.start) } : undefined)];
    }
    case 'table': {
      const table = t as unknown as Tokens.Table;
      const row = (cells: Tokens.TableCell[], tag: string) =>
        out.el(
          'tr',
          cells.map((cell) => out.el(tag, inlineNodes(out, cell.tokens), cell.align ? { align: cell.align } : undefined)),
        );
      const parts = [out.el('thead', [row(table.header, 'th')])];
      if (table.rows.length)
        parts.push(
          out.el(
            'tbody',
            table.rows.map((r) => row(r, 'td')),
          ),
        );
      return [out.el('table', parts)];
    }
    case 'hr':
      return [out.el('hr')];
    case 'text':
      return t.tokens ? inlineNodes(out, t.tokens) : [out.text(decodeEntities(t.text as string))];
    case 'html':
      return [out.html(t.text as string, true)];
    case 'checkbox':
      return inlineNodes(out, [token]);
    case 'plain': // over a limit of lex.ts
      return [out.el('p', [out.text(t.text as string)], { class: t.continued ? 'plain continued' : 'plain' })];
    default: // space, def: nothing to show
      return [];
  }
}

function inlineNodes<N>(out: Out<N>, tokens: Token[] | undefined): N[] {
  return (tokens ?? []).flatMap((token) => inlineNode(out, token));
}

function inlineNode<N>(out: Out<N>, token: Token): N[] {
  const t = token as Tokens.Generic;
  switch (t.type) {
    case 'strong':
    case 'em':
    case 'del':
      return [out.el(t.type, inlineNodes(out, t.tokens))];
    case 'codespan':
      return [out.el('code', [out.text(t.text as string)])];
    case 'br':
      return [out.el('br')];
    case 'link': {
      const link = token as Tokens.Link;
      // Autolinks show their URL literally, as marked renders them.
      const inner = link.autolink ? [out.text(link.text)] : inlineNodes(out, link.tokens);
      const href = tokenUrl(link);
      if (href === null) return inner;
      const title: Attrs = link.title ? { title: decodeEntities(link.title) } : {};
      return [out.el('a', inner, { href, ...title, ...LINK_ATTRS })];
    }
    case 'image': {
      const image = token as Tokens.Image;
      const alt = inlineText(image.tokens);
      const src = tokenUrl(image);
      if (src === null) return [out.text(alt)];
      const title: Attrs = image.title ? { title: decodeEntities(image.title) } : {};
      return [out.el('img', [], { src, alt, ...title, ...IMAGE_ATTRS })];
    }
    case 'checkbox':
      // marked emits a disabled <input>; no form controls in agent content.
      return [out.el('span', [out.text(t.checked ? '☑' : '☐')], { class: 'task-checkbox' }), out.text(' ')];
    case 'html':
      return [out.html(t.text as string, false)];
    case 'escape':
    case 'plain': // over a limit of lex.ts
      return [out.text(t.text as string)];
    default: // text
      return t.tokens ? inlineNodes(out, t.tokens) : [out.text(decodeEntities(t.text as string))];
  }
}

/** The text of inline tokens: what a screen reader, an image's alt text or a title reads. */
export function inlineText(tokens: Token[] | undefined): string {
  let out = '';
  for (const t of (tokens ?? []) as Tokens.Generic[]) {
    if (t.type === 'br') out += '\n';
    else if (t.type === 'image') out += t.text as string;
    else if (t.type === 'html' || t.type === 'codespan' || t.type === 'plain') out += t.text as string;
    else if (t.tokens?.length) out += inlineText(t.tokens);
    else if (t.type === 'checkbox') out += '';
    else out += decodeEntities((t.text as string | undefined) ?? '');
  }
  return out;
}
