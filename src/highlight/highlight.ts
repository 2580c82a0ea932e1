/**
 * Highlighted code, a lazy chunk (src/markdown/decorate.ts fetches it for the first fenced
 * block that names a language): highlight.js grammars through lowlight, which returns a
 * syntax tree instead of an HTML string, so the highlighted code is built here from text
 * nodes and `<span class="hljs-…">` elements. Nothing is parsed as HTML; the code's text
 * stays text. Colours come from `--agent-chat-code-*` (highlight.styles.ts).
 *
 * A block is highlighted in pieces of at most PIECE_CHARS (pieces.ts), one call each, in
 * slices of the main thread (slices.ts): no call is long, and no task highlights for more
 * than a few milliseconds, whatever the code. A block that costs more than its budget, or
 * is longer than MAX_CHARS, shows plain: highlighting is a nicety, a frame is not.
 *
 * A block is drawn once and then changed in place: as it streams, the directive hands its
 * new text to the same `<code>` (`redraw`), the pieces drawn before stay, and only the
 * piece being written changes. The line being typed is plain until its line break arrives,
 * so a half-typed token never flashes a wrong colour.
 */
import type { ElementContent, RootContent } from 'hast';
import { createLowlight } from 'lowlight';
import { adoptStyles } from '../shell/panel-loader.js';
import { warnOnce } from '../warn.js';
import { GRAMMARS } from './chunks.js';
import { grammarOf } from './languages.js';
import { PIECE_CHARS, pieceEnd, plainEnd } from './pieces.js';
import { Slices, type Work } from './slices.js';
import { styles } from './highlight.styles.js';

export { styles };

const lowlight = createLowlight();
const slices = new Slices();

/** A piece as highlighted: its tree, and whether the grammar is back at its top level at its end. */
interface Lit {
  children: Array<RootContent | ElementContent>;
  closed: boolean;
}

/**
 * Pieces by grammar and text, most recently used last: a block drawn again (another
 * thread shown, the same code in a later reply) costs no highlighting.
 */
const cache = new Map<string, Lit>();
/** The cache's size in characters of code: the oldest pieces go first. */
const CACHE_CHARS = 200_000;
let cachedChars = 0;
/** Longer code stays plain: past it, what a reader gains no longer pays for its DOM. */
const MAX_CHARS = 100_000;
/**
 * What a block's highlighting may take of the main thread in all (its steps, and the piece
 * being written again as it streams), in milliseconds: BUDGET_MS and BUDGET_MS_PER_KB of
 * its length. A safety net, not a filter: cut into pieces, the slowest code found costs a
 * few times what ordinary code does (BENCHMARKS.md "Highlighted code"), and ordinary code
 * takes a twentieth of this on a loaded 2-core machine. Past it, the block shows plain.
 */
export const BUDGET_MS = 250;
export const BUDGET_MS_PER_KB = 20;

/** A grammar's chunk, registered once it is here (a failure is tried again by a later block: src/lazy.ts). */
function loadGrammar(grammar: string): Promise<boolean> {
  return GRAMMARS[grammar]!().then(
    (module) => {
      if (!lowlight.registered(grammar)) {
        lowlight.register(grammar, module.default);
        // Compiled now, as it arrives, rather than in the first block's first step (which
        // would charge it to that block's budget).
        lowlight.highlight(grammar, '');
      }
      return true;
    },
    (error: unknown) => {
      warnOnce('a code highlighting grammar could not be loaded; the code is shown plain.', error);
      return false;
    },
  );
}

function toNodes(nodes: Array<RootContent | ElementContent>): Node[] {
  return nodes.map((node) => {
    if (node.type === 'text') return document.createTextNode(node.value);
    if (node.type !== 'element') return document.createTextNode('');
    const span = document.createElement('span');
    const names = node.properties?.className;
    if (Array.isArray(names)) span.className = names.join(' ');
    span.append(...toNodes(node.children));
    return span;
  });
}

/** `text` as highlighted before, if the cache has it. */
function cached(grammar: string, text: string): Lit | undefined {
  const key = `${grammar}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    // Most recent last: the oldest entry is the one evicted.
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

/** `text` highlighted now (one call, at most PIECE_CHARS read), and kept. */
function highlightNow(grammar: string, text: string): Lit {
  const key = `${grammar}\u0000${text}`;
  const children = lowlight.highlight(grammar, text).children;
  // Back at the grammar's top level when the piece ends in plain text (a comment or a
  // string still open at its end would be the last span).
  const hit = { children, closed: children.at(-1)?.type === 'text' };
  cache.set(key, hit);
  cachedChars += key.length;
  for (const [old] of cache) {
    if (cachedChars <= CACHE_CHARS) break;
    cache.delete(old);
    cachedChars -= old.length;
  }
  return hit;
}

let noted = false;

/** The class of a `<code>` drawn plain in blocks (highlight.styles.ts lays them out as blocks). */
const PLAIN = 'plain-code';

/** `node`'s text is `text`: a text that grew gets the characters it gained (a reader's selection in it stays). */
function grow(node: Text, text: string): void {
  if (text === node.data) return;
  if (text.startsWith(node.data)) node.appendData(text.slice(node.data.length));
  else node.data = text;
}

/** `code`'s text is `text`, one text node. */
function setText(code: HTMLElement, text: string): void {
  const node = code.firstChild;
  if (!(node instanceof Text) || node !== code.lastChild) code.replaceChildren(text);
  else grow(node, text);
}

/**
 * One `<code>` as drawn: a node per piece drawn for good (`done` characters of its text),
 * the piece drawn last (`open`: the last of the finished lines, which the next line may
 * still change), and `rest`, one text node for everything after (pieces not yet highlighted
 * and the line being typed), plain. Drawn plain (`plain`), the same without colours: a
 * `<span>` per block of PLAIN_CHARS up to `done`, and `rest` after.
 */
class Painting implements Work {
  private __text = '';
  private __typing = false;
  /** Where the finished lines end: the line being typed, after, stays plain. */
  private __finished = 0;
  private __done = 0;
  private __open: { end: number; node: Node } | undefined;
  private readonly __rest = new Text();
  /** Past its budget or MAX_CHARS, or without its grammar: its text, plain, in blocks of PLAIN_CHARS (pieces.ts `plainEnd`). */
  private __plain = false;
  spent = 0;
  budget = BUDGET_MS;

  constructor(
    private readonly __code: HTMLElement,
    private readonly __grammar: string,
  ) {
    __code.replaceChildren(this.__rest);
  }

  get shown(): boolean {
    return this.__code.isConnected;
  }

  /** The block's text is now `text`; `typing`: its last line is unfinished. */
  update(text: string, typing: boolean): void {
    if (text.length > MAX_CHARS) this.giveUp();
    this.__typing = typing;
    if (this.__plain) return this.__plainDraw(text);
    const finished = typing ? text.lastIndexOf('\n', text.length - 2) + 1 : text.length;
    const { __done: done, __open: open } = this;
    const grown = done <= finished && text.startsWith(this.__text.slice(0, done));
    const same = open && open.end <= finished && finished === this.__finished && text.startsWith(this.__text.slice(done, open.end), done);
    this.__text = text;
    this.__finished = finished;
    this.budget = BUDGET_MS + (text.length / 1024) * BUDGET_MS_PER_KB;
    if (!grown) {
      // Not the text drawn, grown: drawn again.
      this.__done = 0;
      this.__open = undefined;
      this.__code.replaceChildren(this.__rest);
    } else if (open && !same) {
      // More lines: the piece drawn last is done if a piece now follows it, else drawn again.
      if (open.end < finished && this.__unit(false)?.end === open.end) this.__done = open.end;
      else open.node.parentNode?.removeChild(open.node);
      this.__open = undefined;
    }
    const after = text.slice(this.__open?.end ?? this.__done);
    grow(this.__rest, after);
    if (!lowlight.registered(this.__grammar)) return;
    this.__code.classList.add('hljs');
    // Pieces highlighted before (this block a frame ago, or another showing the same code)
    // are drawn now, whatever the allowance: what is drawn does not depend on the time.
    let unit;
    while (this.__behind && (unit = this.__unit(false))) this.__draw(unit);
    if (this.__behind) slices.run(this);
  }

  /** Its grammar is here (`ok`), or cannot be had. */
  ready(ok: boolean): void {
    if (ok) this.update(this.__text, this.__typing);
    else this.giveUp(false);
  }

  /**
   * The piece that starts where the drawn ones end, grown over the next pieces while the
   * grammar is still inside something at its end (a comment, a string: the next piece would
   * be read wrong alone) and the joined piece stays within PIECE_CHARS; `null` for a line too
   * long to highlight. `call`: at most one call of the highlighter, else the cache only.
   */
  private __unit(call: boolean): { end: number; lit: Lit | null } | undefined {
    const { __text: text, __done: done, __finished: finished } = this;
    let end = pieceEnd(text, done, finished);
    for (;;) {
      if (end - done > PIECE_CHARS) return { end, lit: null };
      const source = text.slice(done, end);
      let piece = cached(this.__grammar, source);
      if (!piece) {
        if (!call) return undefined;
        piece = highlightNow(this.__grammar, source);
        call = false;
      }
      const next = piece.closed || end >= finished ? end : pieceEnd(text, end, finished);
      if (next === end || next - done > PIECE_CHARS) return { end, lit: piece };
      end = next;
    }
  }

  /** Whether there are finished lines it has not drawn: the work a step does. */
  private get __behind(): boolean {
    return !this.__plain && !this.__open && this.__done < this.__finished;
  }

  step(): boolean {
    // A draw since it was queued may have drawn what it would (from the cache, or its own step).
    if (!this.__behind) return false;
    let unit;
    try {
      unit = this.__unit(true);
    } catch (error) {
      // A grammar that throws on some input: that block stays plain, the reply goes on.
      warnOnce('a code block could not be highlighted; it is shown plain.', error);
      this.giveUp(false);
    }
    if (unit) this.__draw(unit);
    return this.__behind;
  }

  /**
   * Shows `unit` where the drawn pieces end, before the plain rest: one node, a span around
   * its highlighted spans and text. A piece per node keeps the code's children few, and
   * adding a node among thousands of siblings cost 10-20 ms in Chromium (2 s over an 80 KB
   * block).
   */
  private __draw({ end, lit }: { end: number; lit: Lit | null }): void {
    let node: Node;
    if (lit) {
      node = document.createElement('span');
      (node as HTMLElement).append(...toNodes(lit.children));
    } else node = document.createTextNode(this.__text.slice(this.__done, end));
    this.__code.insertBefore(node, this.__rest);
    this.__rest.deleteData(0, end - this.__done);
    if (end < this.__finished) this.__done = end;
    else this.__open = { end, node };
  }

  /**
   * Plain from now on. Past its budget or MAX_CHARS nothing went wrong, so the reader is not
   * told, and the page's developer only in the console's debug level (`note`).
   */
  giveUp(note = true): void {
    if (this.__plain) return;
    if (note && !noted) console.debug('<agent-chat>: a code block is shown plain: highlighting it would take too long.');
    noted ||= note;
    this.__plain = true;
    this.__code.classList.remove('hljs');
    this.__code.classList.add(PLAIN);
    this.__done = 0;
    this.__open = undefined;
    this.__code.replaceChildren(this.__rest);
    this.__plainDraw(this.__text);
  }

  /**
   * Draws `text` plain: the blocks drawn before stay while the text only grew; what follows
   * the last is cut into blocks (pieces.ts `plainEnd`), and the rest is one text node.
   */
  private __plainDraw(text: string): void {
    if (!text.startsWith(this.__text.slice(0, this.__done))) {
      this.__done = 0;
      this.__code.replaceChildren(this.__rest);
    }
    this.__text = text;
    for (let end; (end = plainEnd(text, this.__done)) > this.__done; this.__done = end) {
      const block = document.createElement('span');
      block.append(text.slice(this.__done, end));
      this.__code.insertBefore(block, this.__rest);
    }
    grow(this.__rest, text.slice(this.__done));
  }
}

const paintings = new WeakMap<HTMLElement, Painting>();

/** A `<code>`'s classes as the markdown renderer wrote them (its language), without the ones drawing adds. */
const classes = (code: Element) => [...code.classList].filter((name) => name !== 'hljs' && name !== PLAIN).join(' ');

/** The colours go to the shadow root the block is shown in: now, or once it is put there. */
function adoptInto(code: HTMLElement): void {
  const adopt = () => {
    const root = code.getRootNode();
    if (root instanceof ShadowRoot) adoptStyles(root, styles);
  };
  // A block is highlighted as it is rendered, in a fragment the template inserts next.
  if (code.isConnected) adopt();
  else queueMicrotask(adopt);
}

/**
 * Highlights `code` (a `<code>` of a fenced block whose fence named `language`) in place:
 * as its grammar arrives, a piece at a time; a language without a grammar is drawn plain,
 * in blocks. `typing`: the block is still streaming and its last line is unfinished.
 */
export function highlight(code: HTMLElement, language: string, typing: boolean): void {
  const grammar = grammarOf(language);
  // Agent HTML's markup inside code (allow-html) stays as it is where nothing would colour it.
  if (paintings.has(code) || (!grammar && code.firstElementChild)) return;
  const text = code.textContent ?? '';
  const painting = new Painting(code, grammar ?? '');
  paintings.set(code, painting);
  adoptInto(code);
  if (!grammar) painting.giveUp(false);
  painting.update(text, typing);
  if (grammar && !lowlight.registered(grammar))
    void loadGrammar(grammar).then((ok) => {
      adoptInto(code);
      painting.ready(ok);
    });
}

/**
 * The `<code>` of `pre` when it is a fenced block's as the markdown renderer writes it (a
 * bare `<pre>` around a `<code>` with at most a class) and holds only text or what this
 * module drew: agent HTML's `<pre>` (allow-html) may have attributes or markup inside,
 * which only a new draw renders right.
 */
function codeOf(pre: Node | null | undefined): HTMLElement | undefined {
  const code = pre?.firstChild;
  if (!(pre instanceof HTMLPreElement) || pre.attributes.length || pre.childNodes.length !== 1 || !(code instanceof HTMLElement)) return;
  const ours = paintings.has(code) || (code.childNodes.length < 2 && !code.firstElementChild);
  if (code.localName === 'code' && ours && Array.from(code.attributes).every((a) => a.name === 'class')) return code;
}

/**
 * Draws a code block again over its previous draw (`drawn`, its wrapper) when it is the same
 * fence grown: `fresh` is its new draw, undecorated (`pre > code`). The wrapper, its button
 * and the pieces drawn stay; only the piece being written changes (drawing each frame anew
 * rebuilt a 32 KB block's spans: 40-85 ms). False when it is not such a block.
 */
export function redraw(drawn: ChildNode[] | false | undefined, fresh: DocumentFragment, typing: boolean): boolean {
  const [wrapper] = drawn || [];
  if (!drawn || drawn.length !== 1 || !(wrapper instanceof HTMLElement) || !wrapper.matches('.code-block')) return false;
  const code = codeOf(wrapper.lastChild);
  const next = fresh.childNodes.length === 1 ? codeOf(fresh.firstChild) : undefined;
  if (!code || !next || classes(next) !== classes(code)) return false;
  const text = next.textContent ?? '';
  const painting = paintings.get(code);
  if (painting) painting.update(text, typing);
  else {
    setText(code, text);
    const language = /(?:^|\s)language-(\S{1,40})/.exec(next.className)?.[1];
    if (language) highlight(code, language, typing);
  }
  return true;
}
