import type { Tokens, TokensList } from './vendor/marked.js';
import { noChange } from 'lit-html';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit-html/directive.js';
import { warnOnce } from '../warn.js';
import { el } from './tokens.js';
import {
  blockSource,
  DEFAULT_LABELS,
  hasLexer,
  hasLinks,
  hasTailSupport,
  htmlMode,
  lexBlocks,
  loadLexer,
  normalize,
  plainBlock,
  renderBlock,
  tailState,
  type Block,
  type MarkdownLabels,
  type MarkdownOptions,
} from './blocks.js';

/**
 * A reply draws its first 64 blocks in its element and the rest in boxes of 64 (`.g`,
 * markdown.styles.ts): 64 is `1 << GROUP_BITS`, and `i >> GROUP_BITS` the box of block `i`
 * (counting the element as box 0). A block that grows changes the height of its parent, and
 * the browser places every child of that parent again, each frame: a 1 MB reply's 6,000
 * blocks in one element made each frame's layout and pre-paint grow with the reply (layout
 * 3 → 48 ms a frame; 126–135 tasks over 50 ms). In boxes, a frame places the boxes and the
 * last box's blocks, and a box out of view is skipped (`content-visibility`): no task over
 * 50 ms (BENCHMARKS.md "A long reply in boxes"). Shorter replies (nearly all) have no box.
 */
const GROUP_BITS = 6;

interface RenderedBlock {
  key: string;
  nodes: ChildNode[];
  /** The lexer's block it was drawn from: one the lexer kept (the same object) draws the same. */
  block: Block;
}

class MarkdownDirective extends Directive {
  private __element: Element | undefined;
  private __rendered: RenderedBlock[] = [];
  /** The boxes of the blocks after the first 64: `groups[n]` holds blocks (n + 1) * 64 to (n + 2) * 64 - 1. */
  private __groups: HTMLElement[] = [];
  private __settings = '';
  private __text = '';
  private __streaming = false;
  /** Drawn while streaming with the guard of tail.ts (see blocks.ts `loadTailSupport`). */
  private __guarded = false;
  private __blocks: Block[] = [];
  private __links: TokensList['links'] = {};
  /** Sticky once link definitions appear: they change earlier blocks, so lex everything. */
  private __fullLex = false;
  /** Drawn in part as its text before the lexer was here (blocks.ts `lexTokens`): drawn again when it comes. */
  private __provisional = false;
  /** The last draw's element, text and settings: what is drawn again when the lexer comes. */
  private __drawn: Parameters<MarkdownDirective['__draw']> | undefined;
  /** A draw has asked for the lexer, and its answer has not come. */
  private __waiting = false;
  /** While streaming: no new draw before this time (see `draw`). */
  private __nextAt = 0;
  private __timer: ReturnType<typeof setTimeout> | undefined;

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

    if (element !== this.__element || settings !== this.__settings || (this.__provisional && hasLexer())) {
      element.replaceChildren();
      this.__element = element;
      this.__settings = settings;
      this.__reset();
    }

    // Lit calls update() on every host render; an unchanged message costs nothing, unless
    // the guard for half-typed syntax has arrived since an unfinished one was drawn.
    const guarded = streaming && hasTailSupport();
    if (text === this.__text && streaming === this.__streaming && guarded === this.__guarded && this.__rendered.length > 0) return noChange;
    this.__guarded = guarded;
    clearTimeout(this.__timer);
    const wait = this.__nextAt - performance.now();
    if (streaming && this.__streaming && wait > 0) {
      // Too soon after an expensive tail: draw the latest text when its turn comes (the log
      // follows the growing reply by its size: src/log/log.ts).
      this.__timer = setTimeout(() => {
        if (element.isConnected) this.__draw(element, text, true, allowHtml, labels);
      }, wait);
      return noChange;
    }
    this.__draw(element, text, streaming, allowHtml, labels);
    return noChange;
  }

  /**
   * Block `i`'s nodes after the blocks before it: the first 64 in the element, before its
   * boxes (a full draw, which replaces the first blocks, keeps them there), the others at the
   * end of their box, made when its first block comes (drawn or not, so boxes are made in
   * order). Stale blocks are taken out after the draw, so whatever is still in a place ends
   * up before what a draw adds.
   */
  private __place(element: Element, i: number, frag: DocumentFragment): void {
    const n = (i >> GROUP_BITS) - 1;
    if (n < 0) element.insertBefore(frag, this.__groups[0] ?? null);
    else (this.__groups[n] ??= element.appendChild(el('div', [], { class: 'g' }))).append(frag);
  }

  private __reset(): void {
    this.__rendered = [];
    this.__groups = [];
    this.__blocks = [];
    this.__text = '';
    this.__fullLex = false;
    this.__provisional = false;
    this.__nextAt = 0;
  }

  private __draw(element: Element, text: string, streaming: boolean, allowHtml: boolean, labels: MarkdownLabels): void {
    const started = performance.now();
    this.__drawn = [element, text, streaming, allowHtml, labels];
    try {
      this.__streaming = streaming;
      this.__lex(allowHtml, text);
      const linksKey = this.__fullLex ? JSON.stringify(this.__links) + '\u0000' : '';

      // Keys are the rendered source: a finished block keeps its DOM as long as its raw text
      // is unchanged; the tail is re-rendered whenever its (completed) source changes.
      const { __blocks: blocks, __rendered: rendered } = this;
      const tail = tailState(text, streaming);
      const last = blocks.length - 1;
      const source = (i: number) => blockSource(blocks[i]!, i === last ? tail : 'settled');
      // A tail whose last line is unfinished renders differently (its code is highlighted
      // without that line), so it is drawn again when that line is done, even unchanged.
      const key = (i: number, source: string) => linksKey + source + (i === last && tail === 'typing' ? '\u0001' : '');

      // Blocks the incremental lex kept (the same objects, lexed with the same links) are
      // drawn as they were: neither their sources nor their keys are built or compared
      // again, so a frame's work does not grow with the blocks before the tail. The last
      // one drawn was the tail, drawn from its completed source: compared by key.
      let same = 0;
      while (same < last && same < rendered.length - 1 && rendered[same]!.block === blocks[same]) same++;
      while (same <= last && same < rendered.length && rendered[same]!.key === key(same, source(same))) {
        rendered[same]!.block = blocks[same]!;
        same++;
      }
      const stale = rendered.splice(same);
      for (let i = same; i <= last; i++) {
        const src = source(i);
        // A code block that grew is drawn over its previous draw: only its new piece changes.
        const drawn = i === same && stale[0]?.nodes;
        const frag = renderBlock(blocks[i]!, src, this.__links, allowHtml, labels, i === last && tail === 'typing', drawn);
        const nodes = frag ? [...frag.childNodes] : stale.shift()!.nodes;
        if (frag) this.__place(element, i, frag);
        rendered.push({ key: key(i, src), nodes, block: blocks[i]! });
      }
      for (const { nodes } of stale) for (const node of nodes) node.remove();
      // The boxes past the last block go (one whose blocks draw nothing stays, and takes no
      // room: markdown.styles.ts).
      for (const group of this.__groups.splice(Math.max(0, last >> GROUP_BITS))) group.remove();
    } catch (error) {
      // The message's error boundary (blocks have their own): its text, as text, until a
      // later draw, which starts afresh (as on a new element) rather than add to it.
      warnOnce('a message could not be rendered; it is shown as plain text.', error);
      this.__reset();
      element.replaceChildren(plainBlock(text));
      this.__element = undefined;
    }
    // A long tail block that is expensive to draw is drawn again no sooner than three times
    // its cost later: markdown then takes at most a quarter of the main thread while a
    // reply streams, however long the block grows. Short blocks are never held back (a
    // slow frame there is noise, not cost), and the final render is never late.
    const cost = performance.now() - started;
    const tail = this.__blocks.at(-1)?.token.raw.length ?? 0;
    this.__nextAt = streaming && cost > 8 && tail > 2_000 ? performance.now() + cost * 3 : 0;
    // Drawn in part as its text: drawn again, its latest text, when the lexer comes. The
    // panel renders again then too, but not every markdown() is in that render (a message
    // the log does not draw again, the disclaimer's text).
    if (this.__provisional && !this.__waiting) {
      this.__waiting = true;
      void loadLexer().then((ok) => {
        this.__waiting = false;
        const drawn = this.__drawn!;
        if (ok && this.__provisional && drawn[0] === this.__element && drawn[0].isConnected) {
          drawn[0].replaceChildren();
          this.__reset();
          this.__draw(...drawn);
        }
      });
    }
  }

  // Only the source from the last block on (or the one before, when the tail may still join
  // it: `mayJoin`) is lexed again, so the work per token does not grow with the reply; the
  // final render too (a whole 1 MB reply lexed again at its end was a 200-380 ms task).
  // Link reference definitions reach back over the whole text: with any, every render
  // lexes everything (`fullLex`), as does a text that changed other than by growing.
  private __lex(allowHtml: boolean, text: string): void {
    const previous = this.__blocks;
    if (!this.__fullLex && previous.length > 0 && text.startsWith(this.__text)) {
      // From the start of the last block; a long plain block is several pieces, lexed whole.
      let last = previous.length - 1;
      while (last > 0 && (previous[last]!.token as Tokens.Generic).continued) last--;
      if (last > 0 && mayJoin(previous[last - 1]!, previous[last]!, text)) {
        last--;
        while (last > 0 && (previous[last]!.token as Tokens.Generic).continued) last--;
      }
      const from = previous[last]!.start;
      // A copy of the tail, not a slice of this frame's text: a slice keeps the whole text
      // alive, and the tokens of every block live as long as the message (a 1 MB reply held
      // a copy per block, 926 MB). The copy is as long as the tail.
      const tail = lexBlocks(allowHtml, `${text.slice(from)} `.slice(0, -1), from);
      if (tail.complete && !hasLinks(tail.links)) {
        this.__blocks = previous.slice(0, last).concat(tail.blocks);
        this.__text = text;
        this.__provisional ||= tail.provisional;
        return;
      }
    }
    const all = lexBlocks(allowHtml, text);
    this.__blocks = all.blocks;
    this.__links = all.links;
    this.__text = text;
    this.__provisional = all.provisional;
    if (hasLinks(all.links) || !all.complete) this.__fullLex = true;
  }
}

/**
 * Whether a later token can still turn `tail` into a part of the block before it, which a lex
 * of the tail alone cannot see: a line right after a paragraph or list may become its lazy
 * continuation (a fence opener that turns out to be text, `2.` under `1. a`), and after a
 * blank line a list or indented (not fenced) code takes in an indented line or a list item.
 */
function mayJoin(before: Block, tail: Block, text: string): boolean {
  const between = text.slice(before.start + before.token.raw.trimEnd().length, tail.start);
  if (!/\n[ \t]*\n/.test(between)) return true;
  const token = before.token as Tokens.Generic;
  return (token.type === 'list' || token.codeBlockStyle === 'indented') && /^[ \t\d*+-]/.test(text[tail.start]!);
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
