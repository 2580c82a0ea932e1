/**
 * Highlighted code, a lazy chunk (src/markdown/decorate.ts fetches it for the first fenced
 * block that names a language): highlight.js grammars through lowlight, which returns a
 * syntax tree instead of an HTML string, so the highlighted code is built here from text
 * nodes and `<span class="hljs-…">` elements. Nothing is parsed as HTML; the code's text
 * stays text. Colours come from `--agent-chat-code-*` (highlight.styles.ts).
 *
 * While a block streams, only its finished lines are highlighted: the line being typed is
 * plain until its line break arrives, so a half-typed token never flashes a wrong colour.
 * A block is highlighted in pieces, each cached by its text (`highlighted`), so a frame
 * clones what was already highlighted and highlights only the piece being written.
 */
import type { ElementContent, RootContent } from 'hast';
import { createLowlight } from 'lowlight';
import { adoptStyles } from '../shell/panel-loader.js';
import { warnOnce } from '../warn.js';
import { GRAMMARS } from './chunks.js';
import { grammarOf } from './languages.js';
import { styles } from './highlight.styles.js';

export { styles };

const lowlight = createLowlight();

/**
 * Highlighted pieces by language and text. A block is highlighted in pieces (see
 * `highlighted`), so a streaming block asks for the same finished pieces on every frame.
 */
const cache = new Map<string, { nodes: Node[]; closed: boolean }>();
/** The cache's size in characters of code: the oldest pieces go first. */
const CACHE_CHARS = 200_000;
let cachedChars = 0;
/** A piece longer than this is cut at line ends too (code without blank lines, e.g. JSON). */
const PIECE_CHARS = 2_048;
/** Longer code stays plain: highlighting is a nicety, a frame is not. */
const MAX_CHARS = 50_000;

/** A grammar's chunk, registered once it is here (a failure is tried again by a later block: src/lazy.ts). */
function loadGrammar(grammar: string): Promise<boolean> {
  return GRAMMARS[grammar]!().then(
    (module) => {
      if (!lowlight.registered(grammar)) lowlight.register(grammar, module.default);
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

function piece(grammar: string, text: string): { nodes: Node[]; closed: boolean } {
  const key = `${grammar}\u0000${text}`;
  let hit = cache.get(key);
  if (hit) {
    // Most recent last: the oldest entry is the one evicted.
    cache.delete(key);
  } else {
    const children = lowlight.highlight(grammar, text).children;
    // Back at the grammar's top level when the piece ends in plain text (a comment or a
    // string still open at its end would be the last span).
    hit = { nodes: toNodes(children), closed: children.at(-1)?.type === 'text' };
    cachedChars += key.length;
    for (const [old] of cache) {
      if (cachedChars <= CACHE_CHARS) break;
      cache.delete(old);
      cachedChars -= old.length;
    }
  }
  cache.set(key, hit);
  return hit;
}

/**
 * `text` highlighted in pieces cut after blank lines (and, in long stretches without one,
 * at line ends), where the grammar is back at its top level (what the piece before ended
 * in says so): a piece is highlighted once and then reused, so a streaming block costs the
 * piece being written, not the whole block, per line, and the finished block is the same
 * pieces (what streamed is what stays). A construct still open at a cut (a comment, a
 * template string) keeps its pieces together.
 */
function highlighted(grammar: string, text: string): Node[] {
  const parts = text
    .split(/(?<=\n[ \t]*\n)(?=[ \t]*\S)/)
    .flatMap((part) => (part.length > PIECE_CHARS ? (part.match(/[^]{1,1024}(?:[^\n]*\n|[^]*$)/g) ?? [part]) : part));
  const out: Node[] = [];
  let pending = '';
  parts.forEach((part, i) => {
    pending += part;
    const { nodes, closed } = piece(grammar, pending);
    if (!closed && i < parts.length - 1) return;
    out.push(...nodes.map((node) => node.cloneNode(true)));
    pending = '';
  });
  return out;
}

function paint(code: HTMLElement, grammar: string, text: string, typing: boolean): void {
  // The line being typed stays plain until it ends.
  const finished = typing ? text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1) : text;
  try {
    code.replaceChildren(...highlighted(grammar, finished), text.slice(finished.length));
    code.classList.add('hljs');
  } catch (error) {
    // A grammar that throws on some input: that block stays plain, the reply goes on.
    code.textContent = text;
    warnOnce('a code block could not be highlighted; it is shown plain.', error);
  }
}

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
 * at once when its grammar is here, else when it arrives, if the block is still shown with
 * the same text. `typing`: the block is still streaming and its last line is unfinished.
 */
export function highlight(code: HTMLElement, language: string, typing: boolean): void {
  const grammar = grammarOf(language);
  const text = code.textContent ?? '';
  if (!grammar || text.length > MAX_CHARS) return;
  adoptInto(code);
  if (lowlight.registered(grammar)) return paint(code, grammar, text, typing);
  void loadGrammar(grammar).then((ok) => {
    if (!ok || !code.isConnected || code.textContent !== text) return;
    adoptInto(code);
    paint(code, grammar, text, typing);
  });
}
