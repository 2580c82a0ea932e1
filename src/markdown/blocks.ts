/**
 * A reply as blocks: lexed within lex.ts's limits (prose without the lexer: prose.ts), each
 * top-level block rendered on its own (DOM, or HTML through the allow-html sanitiser),
 * decorated, and isolated: a block that cannot be rendered is its own text, the rest of the
 * reply is not affected.
 */
import type { Token, TokensList } from './vendor/marked.js';
import { en } from '../i18n/strings.js';
import type { Sanitize } from '../security/html-policy.js';
import { safeUrl } from '../security/url.js';
import { trustedPolicy } from '../security/trusted-types.js';
import { warnOnce } from '../warn.js';
import { decorate, type MarkdownLabels } from './decorate.js';
import { isProse, proseTokens } from './prose.js';
import type { TypingTail } from './tail.js';
import { highlight as highlightChunk, htmlPolicy, lexer as lexerChunk, tail as tailChunk } from './chunks.js';
import { blockNodes, el, IMAGE_ATTRS, LINK_ATTRS, plainBlocks, toDom, toFragment, type Out } from './tokens.js';

export type { MarkdownLabels };

export interface MarkdownOptions {
  /** The text is an unfinished stream: complete the tail block instead of showing raw syntax. */
  streaming?: boolean;
  /** Render raw HTML as a sanitised formatting subset instead of literal text. */
  allowHtml?: boolean;
  labels?: MarkdownLabels;
}

export const DEFAULT_LABELS: MarkdownLabels = { copyCode: en.copyCode, table: en.tableLabel };

// --- the allow-html sanitiser (a lazy chunk) ---------------------------------------------

let sanitizer: Sanitize | null | undefined;
/** The walk's HTML output, from the sanitiser's chunk. */
let toHtml: Out<string> | undefined;

/** `tokens` as `allowHtml` shows them: the walk's HTML through the sanitiser; null until it is here. */
export function sanitizedBlock(tokens: Token[]): DocumentFragment | null {
  return sanitizer ? sanitizer(blockNodes(toHtml!, tokens).join('')) : null;
}

/** True once `allowHtml` can render (the sanitiser is loaded and usable). */
export function hasHtmlSupport(): boolean {
  return !!sanitizer;
}

/**
 * Loads the sanitiser for `allowHtml` (DOMPurify and its policy, a lazy chunk beside the
 * script: pages that never opt in never download it). Resolves false when it cannot load
 * or cannot run; raw HTML then stays literal text, as it is by default.
 */
export function loadHtmlSupport(): Promise<boolean> {
  if (sanitizer !== undefined) return Promise.resolve(!!sanitizer);
  return htmlPolicy().then(
    (policy) => {
      toHtml = policy.toHtml;
      return !!(sanitizer ??= policy.createSanitizer({
        safeUrl,
        linkAttrs: LINK_ATTRS,
        imageAttrs: IMAGE_ATTRS,
        trustedPolicy: trustedPolicy(),
      }));
    },
    () => false,
  );
}

// --- the guard for half-typed syntax (a lazy chunk) ----------------------------------------

/**
 * Loads tail.ts, which only a streaming or cut-off reply uses (a page that only shows a
 * welcome message never downloads it). Until it is here a tail renders as typed: the panel
 * waits for it before it shows such a reply, and a turn fetches it as it starts. Resolves
 * false when it cannot be fetched: tails then show as typed, and the chat goes on.
 */
export function loadTailSupport(): Promise<boolean> {
  return tailChunk().then(
    () => true,
    () => false,
  );
}

export const hasTailSupport = (): boolean => !!tailChunk.module;

// --- the lexer (a lazy chunk) ----------------------------------------------------------------

/**
 * Loads the lexer (marked and lex.ts: a chunk beside the panel). Prose without markdown is
 * drawn without it (prose.ts), anything else as its plain text until it is here: the panel
 * fetches it for a thread to load or a turn on its way, and a render of text that needs it
 * waits for it a little (src/panel/panel.ts); a text drawn without it is drawn again when
 * it comes (directive.ts). Resolves false when it cannot be fetched: the text stays plain.
 */
export function loadLexer(): Promise<boolean> {
  return lexerChunk().then(
    () => true,
    () => (warnOnce('markdown could not be loaded; replies show as plain text until it can.'), false),
  );
}

export const hasLexer = (): boolean => !!lexerChunk.module;

/** Whether a message's text needs the lexer to show as it will (prose.ts). */
export const needsLexer = (text: string): boolean => !hasLexer() && !isProse(text);

/**
 * `src`'s tokens: the lexer's; before it is here, prose's own, else its text as it is (in
 * pieces of 2 KB, as a long plain block past a limit of lex.ts), `provisional` until the
 * lexer draws it.
 */
export function lexTokens(
  src: string,
  allowHtml: boolean,
  links?: TokensList['links'],
): { tokens: Token[]; links: TokensList['links']; provisional: boolean } {
  const lexed = lexerChunk.module?.lexMarkdown(src, allowHtml, links);
  if (lexed) return { tokens: lexed, links: lexed.links, provisional: false };
  const prose = proseTokens(src);
  if (prose) return { tokens: prose, links: {}, provisional: false };
  return { tokens: plainBlocks(src), links: {}, provisional: true };
}

// --- blocks ------------------------------------------------------------------------------

export interface Block {
  token: Token;
  /** Offset of `token.raw` in the normalised text. */
  start: number;
}

interface Lexed {
  blocks: Block[];
  links: TokensList['links'];
  /** The offsets add up: every character of the source belongs to one token. */
  complete: boolean;
  /** Drawn as its text until the lexer is here (`lexTokens`). */
  provisional: boolean;
}

export function lexBlocks(allowHtml: boolean, src: string, offset = 0): Lexed {
  const { tokens, links, provisional } = lexTokens(src, allowHtml);
  const blocks: Block[] = [];
  let pos = offset;
  for (const token of tokens) {
    if (token.type !== 'space') blocks.push({ token, start: pos });
    pos += token.raw.length;
  }
  return { blocks, links, complete: pos - offset === src.length, provisional };
}

export function hasLinks(links: TokensList['links']): boolean {
  for (const _ in links) return true;
  return false;
}

export function normalize(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * How much of a streamed text's end is still being typed, for the guard in tail.ts:
 * `settled` when the stream is over or ends with a blank line (its last block is finished),
 * `line` when its last line has its line break, `typing` while that line is being typed.
 */
export type TailState = 'settled' | TypingTail;

export function tailState(text: string, streaming: boolean): TailState {
  if (!streaming) return 'settled';
  if (!text.endsWith('\n')) return 'typing';
  // A blank line at the end (a line break, blanks, a line break), read from the end: a
  // regular expression for it would scan the whole text on every frame.
  let i = text.length - 2;
  while (text[i] === ' ' || text[i] === '\t') i--;
  return text[i] === '\n' ? 'settled' : 'line';
}

/**
 * Source to render for a block: the raw text, or the completed tail while streaming (`tail`:
 * the text's tail state for the last block, `settled` for the others). A completed tail is
 * lexed a second time, which a long block cannot afford on every frame; past
 * `TAIL_COMPLETION_CHARS` its half-typed end shows as typed (for a frame or two).
 */
export function blockSource(block: Block, tail: TailState): string {
  const raw = block.token.raw;
  const completer = tailChunk.module?.completeTail;
  return tail !== 'settled' && completer && raw.length <= TAIL_COMPLETION_CHARS ? completer(raw, block.token.type, tail) : raw;
}

const TAIL_COMPLETION_CHARS = 4_096;

/**
 * A block's DOM. `drawn`: the block's previous draw. A fenced code block that grew is drawn
 * over it once the highlighter is here (src/highlight/ `redraw`: its pieces stay, only the
 * piece being written changes), and null says so.
 */
export function renderBlock(
  block: Block,
  source: string,
  links: TokensList['links'],
  html: boolean,
  labels: MarkdownLabels,
  typing = false,
  drawn?: ChildNode[] | false,
): DocumentFragment | null {
  try {
    // The completed tail is lexed again, with the document's link definitions in scope.
    const tokens = source === block.token.raw ? [block.token] : lexTokens(source, html, links).tokens;
    const frag = (html && sanitizedBlock(tokens)) || toFragment(blockNodes(toDom, tokens));
    if (highlightChunk.module?.redraw(drawn, frag, typing)) return null;
    decorate(frag, labels, typing);
    // Each block takes its direction from its own text, as a paragraph of plain text does
    // (and GitHub's rendered markdown): `dir="auto"` on the reply's element instead made the
    // browser read its whole content again for every block appended, a cost that grew with
    // the reply (2.4 s of a 1 MB reply's 19 s).
    for (const child of Array.from(frag.children)) child.setAttribute('dir', 'auto');
    return frag;
  } catch (error) {
    // The error boundary of one block: the rest of the reply and the widget go on.
    warnOnce('a block of a reply could not be rendered; it is shown as plain text.', error);
    return toFragment([plainBlock(source)]);
  }
}

/** Text shown as it is, line breaks kept (`p.plain` is `white-space: pre-wrap`), in the direction of its own text. */
export function plainBlock(text: string): HTMLElement {
  return el('p', [text], { class: 'plain', dir: 'auto' });
}

/**
 * Whether blocks take the opt-in HTML pipeline. Until `loadHtmlSupport()` has resolved they
 * render as by default (raw HTML as text): failing closed, never unsanitised. The element
 * waits for the load before it renders; the directive re-renders once it is there.
 */
export function htmlMode(options: MarkdownOptions): boolean {
  return !!options.allowHtml && !!sanitizer;
}
