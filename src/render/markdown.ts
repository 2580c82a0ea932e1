/**
 * THE single place where untrusted text becomes markup (STYLE.md #7; eslint enforces it).
 *
 * Two pipelines, one per `allowHtml` setting:
 * - Default: marked (GFM) tokens are turned into DOM nodes here, with `createElement`,
 *   text nodes and URL attributes that passed the shared allow-list. Nothing is parsed as
 *   HTML, so raw HTML in a reply is text, there is nothing for a sanitiser to get wrong
 *   and no Trusted Types sink is touched. DOMPurify is not even loaded.
 * - `allowHtml`: the same token walk writes an HTML string instead, with the reply's raw
 *   HTML in it; DOMPurify with the policy of html-policy.ts (loaded on demand as a chunk
 *   beside the script, see `loadHtmlSupport`) keeps a strict allow-list and returns a DOM
 *   fragment.
 * Both end in the same DOM decoration (code copy buttons, scrollable tables). Only marked's
 * Lexer is used: its Parser and Renderer are not in the bundle (see scripts/vite-marked.ts).
 *
 * Each top-level markdown block is rendered on its own. That is what lets the `markdown()`
 * directive keep finished blocks' DOM while a reply streams, and it means an unbalanced tag
 * in opt-in HTML cannot reach past its block. `renderMarkdown()` uses the very same
 * per-block path, so an incremental render always equals a one-shot render.
 *
 * Markup the element's stylesheet should know (inside `part="text"`):
 *   div.code-block > button.copy[data-copy] + pre > code.language-x
 *   div.table-scroll[tabindex=0][role=region][aria-label] > table
 *   span.task-checkbox (GFM task list state as a ☐/☑ glyph)
 * Copy buttons are inert markup: the element delegates clicks to `handleCopyClick`.
 */
import type { Token, Tokens, TokensList } from 'marked';
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';
import { en } from '../i18n/strings.js';
import { safeUrl } from './url.js';
import { completeTail } from './tail.js';
import { lexMarkdown } from './lex.js';
import { warnOnce } from '../warn.js';
import type { Sanitize } from './html-policy.js';

/** Name of the Trusted Types policy; hosts with a `trusted-types` CSP directive allow it. */
export const TRUSTED_TYPES_POLICY_NAME = 'agent-chat';

/** Texts that end up inside rendered markdown; take them from `Strings`. */
export interface MarkdownLabels {
  /** Copy button of a code block (`Strings.copyCode`). */
  copyCode: string;
  /** Accessible name of the scrolling region around a table (`Strings.tableLabel`). */
  table: string;
}

export interface MarkdownOptions {
  /** The text is an unfinished stream: complete the tail block instead of showing raw syntax. */
  streaming?: boolean;
  /** Render raw HTML as a sanitised formatting subset instead of literal text. */
  allowHtml?: boolean;
  labels?: MarkdownLabels;
}

/** TrustedHTML when the browser has Trusted Types, else a plain string. */
export type SafeHtml = string | { toString(): string };

const DEFAULT_LABELS: MarkdownLabels = { copyCode: en.copyCode, table: en.tableLabel };

// --- Trusted Types -----------------------------------------------------------------------

interface TrustedTypesFactory {
  createPolicy(
    name: string,
    rules: { createHTML: (s: string) => string; createScriptURL: (s: string) => string },
  ): { createHTML(s: string): SafeHtml; createScriptURL(s: string): unknown };
}
type Policy = ReturnType<TrustedTypesFactory['createPolicy']>;

let policy: Policy | null | undefined;

// Identity policy, kept private to this module: it only ever signs strings that DOMPurify
// parses (inertly) or produced. Created lazily so pages without markdown never create it;
// creation fails when the host's CSP does not list the name, or when a second copy of the
// widget already took it. Then we fall back to strings (fine unless TT is enforced).
function trustedPolicy(): Policy | null {
  if (policy === undefined) {
    const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
    try {
      policy = factory
        ? factory.createPolicy(TRUSTED_TYPES_POLICY_NAME, { createHTML: (s) => s, createScriptURL: () => '' })
        : null;
    } catch {
      policy = null;
    }
  }
  return policy;
}

// --- the allow-html sanitiser (a lazy chunk) ---------------------------------------------

let sanitizer: Sanitize | undefined;
let sanitizerLoad: Promise<boolean> | undefined;

/** True once `allowHtml` can render (the sanitiser is loaded and usable). */
export function hasHtmlSupport(): boolean {
  return sanitizer !== undefined;
}

/**
 * Loads the sanitiser for `allowHtml` (DOMPurify and its policy, a lazy chunk beside the
 * script: pages that never opt in never download it). Resolves false when it cannot load
 * or cannot run; raw HTML then stays literal text, as it is by default.
 */
export function loadHtmlSupport(): Promise<boolean> {
  sanitizerLoad ??= import('./html-policy.js').then(
    ({ createSanitizer }) => {
      const created = createSanitizer({ safeUrl, linkAttrs: LINK_ATTRS, imageAttrs: IMAGE_ATTRS, trustedPolicy: trustedPolicy() });
      if (created) sanitizer = created;
      return !!created;
    },
    // A failed module load stays failed in the browser's module map; no point retrying.
    () => false,
  );
  return sanitizerLoad;
}

// --- escaping and lexing -----------------------------------------------------------------

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Report hygiene, not the security barrier (DOMPurify still decides what survives):
 * Chromium checks even DOMPurify's inert parse against the host page's CSP, so inline
 * handlers, style attributes and <style>/<script> elements in opt-in HTML would be
 * reported as violations on the host. They are dropped before any parser sees them.
 */
function withoutInlineCode(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    // An unclosed opener loses only itself: what follows stays visible as text.
    .replace(/<\/?(?:script|style)\b[^>]*>?/gi, '')
    .replace(/<[a-z][^>]*>?/gi, (tag) =>
      tag.replace(/[\s/](?:on[\w-]*|style)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?(?=[\s/>]|$)/gi, ''),
    );
}

/** The URL a link or image points at, after the allow-list; null renders no link. */
function tokenUrl(token: Tokens.Link | Tokens.Image): string | null {
  // marked leaves character references in URLs for the HTML parser to decode (autolinks
  // excepted, which are literal). Decode first, so the allow-list judges the real URL.
  return safeUrl((token as Tokens.Link).autolink ? token.href : decodeEntities(token.href));
}

// --- blocks ------------------------------------------------------------------------------

interface Block {
  token: Token;
  /** Offset of `token.raw` in the normalised text. */
  start: number;
}

interface Lexed {
  blocks: Block[];
  links: TokensList['links'];
  /** The offsets add up: every character of the source belongs to one token. */
  complete: boolean;
}

function lexBlocks(allowHtml: boolean, src: string, offset = 0): Lexed {
  const tokens = lexMarkdown(src, allowHtml);
  const blocks: Block[] = [];
  let pos = offset;
  for (const token of tokens) {
    if (token.type !== 'space') blocks.push({ token, start: pos });
    pos += token.raw.length;
  }
  return { blocks, links: tokens.links, complete: pos - offset === src.length };
}

function hasLinks(links: TokensList['links']): boolean {
  for (const _ in links) return true;
  return false;
}

function normalize(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * Source to render for a block: the raw text, or the completed tail while streaming. A
 * completed tail is lexed a second time, which a long block cannot afford on every frame;
 * past `TAIL_COMPLETION_CHARS` its half-typed end shows as typed (for a frame or two).
 */
function blockSource(block: Block, isStreamingTail: boolean): string {
  const raw = block.token.raw;
  return isStreamingTail && raw.length <= TAIL_COMPLETION_CHARS ? completeTail(raw, block.token.type) : raw;
}

const TAIL_COMPLETION_CHARS = 4_096;

function renderBlock(
  block: Block,
  source: string,
  links: TokensList['links'],
  html: boolean,
  labels: MarkdownLabels,
): DocumentFragment {
  try {
    // The completed tail is lexed again, with the document's link definitions in scope.
    const tokens = source === block.token.raw ? [block.token] : lexMarkdown(source, html, links);
    const frag = html ? sanitizer!(blockNodes(toHtml, tokens).join('')) : toFragment(blockNodes(toDom, tokens));
    decorate(frag, labels);
    return frag;
  } catch (error) {
    // The error boundary of one block: the rest of the reply and the widget go on.
    warnOnce('a block of a reply could not be rendered; it is shown as plain text.', error);
    return toFragment([plainBlock(source)]);
  }
}

/** Text shown as it is, line breaks kept (`p.plain` is `white-space: pre-wrap`). */
function plainBlock(text: string): HTMLElement {
  return el('p', [text], { class: 'plain' });
}

// --- tokens to DOM or HTML ------------------------------------------------------------------

type Attrs = Record<string, string>;

// Every link opens a new browsing context without an opener; every image loads lazily.
// (The allow-html policy sets the same on links and images of the reply's own HTML.)
const LINK_ATTRS: Attrs = { target: '_blank', rel: 'noopener noreferrer' };
const IMAGE_ATTRS: Attrs = { loading: 'lazy' };

/**
 * What the token walk builds with. One walk, two outputs, so both pipelines agree on
 * structure and on the link and image policy by construction.
 */
interface Out<N> {
  el(tag: string, children?: N[], attrs?: Attrs): N;
  text(text: string): N;
  /** The reply's raw HTML (`html` tokens). */
  html(text: string, block: boolean): N;
}

type Child = Node | string;

function el(tag: string, children: Child[] = [], attrs?: Attrs): HTMLElement {
  const node = document.createElement(tag);
  if (attrs) for (const name in attrs) node.setAttribute(name, attrs[name]!);
  node.append(...children);
  return node;
}

/** The default: DOM nodes, raw HTML as text. */
const toDom: Out<Child> = {
  el,
  text: (text) => text,
  // Raw HTML is text by default: it never reaches an HTML parser, so it cannot run,
  // cannot swallow the rest of the reply and cannot trip host CSP reports.
  html: (text, block) => (block ? el('p', [text]) : text),
};

const VOID_TAGS = new Set(['br', 'hr', 'img']);

/** `allowHtml`: an HTML string for DOMPurify, with the reply's raw HTML left in it. */
const toHtml: Out<string> = {
  el(tag, children = [], attrs) {
    let open = `<${tag}`;
    if (attrs) for (const name in attrs) open += ` ${name}="${escapeHtml(attrs[name]!)}"`;
    return VOID_TAGS.has(tag) ? `${open}>` : `${open}>${children.join('')}</${tag}>`;
  },
  text: escapeHtml,
  html: withoutInlineCode,
};

function toFragment(children: Child[]): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(...children);
  return frag;
}

function blockNodes<N>(out: Out<N>, tokens: Token[]): N[] {
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
      const code = out.el('code', [out.text(text ? text.replace(/\n$/, '') + '\n' : '')], lang ? { class: `language-${decodeEntities(lang)}` } : undefined);
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
        out.el('tr', cells.map((cell) => out.el(tag, inlineNodes(out, cell.tokens), cell.align ? { align: cell.align } : undefined)));
      const parts = [out.el('thead', [row(table.header, 'th')])];
      if (table.rows.length) parts.push(out.el('tbody', table.rows.map((r) => row(r, 'td'))));
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

// Wrappers are added after rendering, with DOM APIs: the allow-list never has to admit a
// <button> or tabindex/role, so agent HTML (allowHtml) cannot bring its own.
function decorate(root: DocumentFragment, labels: MarkdownLabels): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const button = el('button', [labels.copyCode], { type: 'button', class: 'copy', 'data-copy': '' });
    const wrapper = el('div', [], { class: 'code-block' });
    pre.replaceWith(wrapper);
    wrapper.append(button, pre);
  }
  for (const link of Array.from(root.querySelectorAll<HTMLAnchorElement>('a[href]'))) guardLinkText(link);
  for (const table of Array.from(root.querySelectorAll('table'))) {
    // Focusable so keyboard users can scroll a wide table (WCAG 2.1.1, axe
    // `scrollable-region-focusable`); a named region so the focus stop is announced.
    const wrapper = el('div', [], { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': labels.table });
    table.replaceWith(wrapper);
    wrapper.append(table);
  }
}

// Default-ignorable code points (bidi controls, zero-width characters, variation selectors,
// tag characters, fillers) show as nothing: in link text they make it read as another
// address than it contains. Joiners and variation selectors that build an emoji stay.
const INVISIBLE = /(?<=\p{Extended_Pictographic}\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic})[\ufe0e\ufe0f]|(\p{Default_Ignorable_Code_Point})/gu;
/** Text that reads as a web address: an optional http(s) scheme, then a dotted host name. */
const URL_LIKE = /^(?:https?:\/\/)?((?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]{2,})(?::\d+)?(?:[/?#]\S*)?$/iu;

/**
 * Link text may not show another destination than the link's (SECURITY.md "Links"). The
 * text is compared the way a reader and the URL parser see it: without invisible
 * characters, with the dots IDNA treats as dots, and without surrounding punctuation.
 */
function guardLinkText(link: HTMLAnchorElement): void {
  const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const clean = node.data.replace(INVISIBLE, (match, ignorable?: string) => (ignorable ? '' : match));
    if (clean !== node.data) node.data = clean;
  }
  const read = (link.textContent ?? '')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/[\u3002\uff0e\uff61]/g, '.')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
  const shown = URL_LIKE.exec(read);
  if (!shown || !/^https?:$/.test(link.protocol)) return;
  let claimed: string;
  try {
    claimed = new URL(`https://${shown[1]!}`).hostname;
  } catch {
    return;
  }
  const real = link.hostname;
  const site = (host: string) => host.replace(/^www\./, '');
  // The real host, as the browser will contact it (IDNs in punycode, so look-alikes show).
  if (site(claimed) !== site(real)) link.append(el('span', [` (${real})`], { class: 'link-host' }));
}

/**
 * Whether blocks take the opt-in HTML pipeline. Until `loadHtmlSupport()` has resolved they
 * render as by default (raw HTML as text): failing closed, never unsanitised. The element
 * waits for the load before it renders; the directive re-renders once it is there.
 */
function htmlMode(options: MarkdownOptions): boolean {
  return !!options.allowHtml && sanitizer !== undefined;
}

// --- one-shot ----------------------------------------------------------------------------

/**
 * Renders agent markdown to an HTML string (TrustedHTML when Trusted Types exist), built by
 * the same pipeline as the directive. Prefer the `markdown()` directive in templates; this
 * is for one-off uses and tests. With `allowHtml`, await `loadHtmlSupport()` first.
 */
export function renderMarkdown(text: string, options: MarkdownOptions = {}): SafeHtml {
  const allowHtml = htmlMode(options);
  const labels = options.labels ?? DEFAULT_LABELS;
  const { blocks, links } = lexBlocks(allowHtml, normalize(text));
  const container = document.createElement('div');
  blocks.forEach((block, i) => {
    const tail = !!options.streaming && i === blocks.length - 1;
    container.append(renderBlock(block, blockSource(block, tail), links, allowHtml, labels));
  });
  const html = container.innerHTML;
  const tt = trustedPolicy();
  return tt ? tt.createHTML(html) : html;
}

// --- incremental directive ---------------------------------------------------------------

interface RenderedBlock {
  key: string;
  nodes: ChildNode[];
}

class MarkdownDirective extends Directive {
  private element: Element | undefined;
  private rendered: RenderedBlock[] = [];
  private settings = '';
  private text = '';
  private streaming = false;
  private blocks: Block[] = [];
  private links: TokensList['links'] = {};
  /** Sticky once link definitions appear: they change earlier blocks, so lex everything. */
  private fullLex = false;
  /** While streaming: no new draw before this time (see `draw`). */
  private nextAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) {
      throw new Error('markdown() belongs in element position: <div ${markdown(text)}></div>');
    }
  }

  render(_text: string, _options?: MarkdownOptions): unknown {
    return noChange;
  }

  override update(part: ElementPart, [rawText, options = {}]: Parameters<this['render']>): unknown {
    const element = part.element;
    const text = normalize(typeof rawText === 'string' ? rawText : '');
    const allowHtml = htmlMode(options);
    const labels = options.labels ?? DEFAULT_LABELS;
    const streaming = options.streaming ?? false;
    const settings = `${allowHtml}\u0000${labels.copyCode}\u0000${labels.table}`;

    if (element !== this.element || settings !== this.settings) {
      element.replaceChildren();
      this.element = element;
      this.settings = settings;
      this.reset();
    }

    // Lit calls update() on every host render; an unchanged message costs nothing.
    if (text === this.text && streaming === this.streaming && this.rendered.length > 0) return noChange;
    clearTimeout(this.timer);
    const wait = this.nextAt - performance.now();
    if (streaming && this.streaming && wait > 0) {
      // Too soon after an expensive tail: draw the latest text when its turn comes, then
      // let the host update (its log follows the growing reply).
      this.timer = setTimeout(() => {
        if (!element.isConnected) return;
        this.draw(element, text, true, allowHtml, labels);
        (part.options?.host as { requestUpdate?(): void } | undefined)?.requestUpdate?.();
      }, wait);
      return noChange;
    }
    this.draw(element, text, streaming, allowHtml, labels);
    return noChange;
  }

  private reset(): void {
    this.rendered = [];
    this.blocks = [];
    this.text = '';
    this.fullLex = false;
    this.nextAt = 0;
  }

  private draw(element: Element, text: string, streaming: boolean, allowHtml: boolean, labels: MarkdownLabels): void {
    const started = performance.now();
    try {
      this.streaming = streaming;
      this.lex(allowHtml, text, streaming);
      const linksKey = this.fullLex ? JSON.stringify(this.links) + '\u0000' : '';

      // Keys are the rendered source: a finished block keeps its DOM as long as its raw text
      // is unchanged; the tail is re-rendered whenever its (completed) source changes.
      const sources = this.blocks.map((block, i) => blockSource(block, streaming && i === this.blocks.length - 1));
      const keys = sources.map((source) => linksKey + source);

      let same = 0;
      while (same < keys.length && same < this.rendered.length && this.rendered[same]!.key === keys[same]) same++;
      for (const stale of this.rendered.splice(same)) for (const node of stale.nodes) node.remove();
      for (let i = same; i < keys.length; i++) {
        const frag = renderBlock(this.blocks[i]!, sources[i]!, this.links, allowHtml, labels);
        const nodes = Array.from(frag.childNodes);
        element.append(frag);
        this.rendered.push({ key: keys[i]!, nodes });
      }
    } catch (error) {
      // The message's error boundary (blocks have their own): its text, as text.
      warnOnce('a message could not be rendered; it is shown as plain text.', error);
      this.reset();
      element.replaceChildren(plainBlock(text));
    }
    // A long tail block that is expensive to draw is drawn again no sooner than three times
    // its cost later: markdown then takes at most a quarter of the main thread while a
    // reply streams, however long the block grows. Short blocks are never held back (a
    // slow frame there is noise, not cost), and the final render is never late.
    const cost = performance.now() - started;
    const tail = this.blocks.at(-1)?.token.raw.length ?? 0;
    this.nextAt = streaming && cost > 8 && tail > 2_000 ? performance.now() + cost * 3 : 0;
  }

  // While streaming only the source from the last block on is lexed again, so the work per
  // token does not grow with the reply. The final (non-streaming) render lexes everything,
  // which corrects any block boundary the partial lex guessed differently.
  private lex(allowHtml: boolean, text: string, streaming: boolean): void {
    const previous = this.blocks;
    if (streaming && !this.fullLex && previous.length > 0 && text.startsWith(this.text)) {
      // From the start of the last block; a long plain block is several pieces, lexed whole.
      let last = previous.length - 1;
      while (last > 0 && (previous[last]!.token as Tokens.Generic).continued) last--;
      const from = previous[last]!.start;
      const tail = lexBlocks(allowHtml, text.slice(from), from);
      if (tail.complete && !hasLinks(tail.links)) {
        this.blocks = previous.slice(0, last).concat(tail.blocks);
        this.text = text;
        return;
      }
    }
    const all = lexBlocks(allowHtml, text);
    this.blocks = all.blocks;
    this.links = all.links;
    this.text = text;
    if (hasLinks(all.links) || !all.complete) this.fullLex = true;
  }
}

/**
 * Renders agent markdown into the element it is bound to, incrementally:
 * `<div part="text" ${markdown(message.text, {streaming, labels})}></div>`.
 *
 * The element's children belong to the directive. Blocks whose source did not change keep
 * their DOM nodes (selection, focus and image loads survive new tokens); only the tail
 * block is re-rendered while streaming.
 */
export const markdown = directive(MarkdownDirective);

// --- helpers for the element ---------------------------------------------------------------

/** Labels for rendered markdown from the widget's strings. */
export function markdownLabels(strings: { copyCode: string; tableLabel: string }): MarkdownLabels {
  return { copyCode: strings.copyCode, table: strings.tableLabel };
}

/**
 * Click delegate for copy buttons inside rendered markdown. Returns true when the click was
 * a copy. The label switches to `copiedLabel` for a moment and back.
 */
export function handleCopyClick(event: Event, copiedLabel: string, resetMs = 2000): boolean {
  const target = event.composedPath()[0];
  const button = target instanceof Element ? target.closest('button[data-copy]') : null;
  const code = button?.parentElement?.querySelector('pre');
  if (!button || !code) return false;
  const original = button.textContent ?? '';
  void navigator.clipboard?.writeText(code.textContent ?? '').then(
    () => {
      button.textContent = copiedLabel;
      setTimeout(() => (button.textContent = original), resetMs);
    },
    () => {},
  );
  return true;
}

// --- plain text ----------------------------------------------------------------------------

const NAMED_ENTITIES = new Map([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"], ['nbsp', '\u00a0'],
]);
let entityScratch: HTMLTextAreaElement | undefined;

/**
 * Decodes the character references marked leaves in text, titles and URLs, the way the
 * HTML parser would have decoded them in marked's HTML output. The common names are in a
 * table; any other name (HTML knows ~2,200) is decoded by a textarea of an inert document,
 * which parses `&name;` as text only (RCDATA). The input is checked to be one reference,
 * so nothing but a character can come out. Without the Trusted Types policy (a host CSP
 * that does not list it) such a rare name stays literal.
 */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      // As the HTML parser: NUL, surrogates and out-of-range become U+FFFD.
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
    }
    const known = NAMED_ENTITIES.get(ref);
    if (known !== undefined) return known;
    const tt = trustedPolicy();
    if (!tt && 'trustedTypes' in globalThis) return whole;
    try {
      entityScratch ??= document.implementation.createHTMLDocument('').createElement('textarea');
      entityScratch.innerHTML = (tt ? tt.createHTML(whole) : whole) as string;
      const decoded = entityScratch.value;
      // Only real names are remembered (HTML has ~2,200), so agent text cannot grow the map.
      if (decoded !== whole) NAMED_ENTITIES.set(ref, decoded);
      return decoded;
    } catch {
      return whole;
    }
  });
}

function inlineText(tokens: Token[] | undefined): string {
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

function blockText(token: Tokens.Generic): string {
  switch (token.type) {
    case 'space':
    case 'hr':
    case 'def':
      return '';
    case 'code':
    case 'html':
    case 'plain':
      return token.text as string;
    case 'list':
      return (token.items as Tokens.Generic[])
        .map((item) => (item.tokens ?? []).map(blockText).filter(Boolean).join('\n'))
        .join('\n');
    case 'table':
      return [token.header as Token[], ...(token.rows as Token[][])]
        .map((row) => row.map((cell) => inlineText((cell as Tokens.Generic).tokens)).join(', '))
        .join('\n');
    case 'blockquote':
      return (token.tokens ?? []).map(blockText).filter(Boolean).join('\n');
    default:
      return token.tokens ? inlineText(token.tokens) : decodeEntities((token.text as string | undefined) ?? '');
  }
}

/**
 * Markdown to readable plain text (no markup, no HTML) for screen-reader announcements and
 * conversation titles. Raw HTML stays as literal text, as it is shown.
 */
export function renderPlainText(markdownText: string): string {
  const tokens = lexMarkdown(normalize(markdownText), false);
  return tokens
    .map(blockText)
    .filter((s) => s.trim() !== '')
    .join('\n\n')
    .trim();
}

/**
 * The start of a reply as plain text, at most `max` characters, cut at a word and ended
 * with "…" when there was more: what a screen reader announces. A long reply is read by
 * moving through the log, not by a live region that would talk for minutes.
 */
export function plainSummary(markdownText: string, max = 300): string {
  // Only the start is lexed: the summary of a 1 MB reply costs what a short one does.
  const head = markdownText.length > max * 4 ? markdownText.slice(0, max * 4) : markdownText;
  const text = renderPlainText(head).replace(/\s+/g, ' ');
  if (text.length <= max && head === markdownText) return text;
  const cut = text.slice(0, /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
