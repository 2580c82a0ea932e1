/**
 * THE single place where untrusted text becomes markup (this folder; eslint enforces it).
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
 * Lexer is used: its Parser and Renderer are not in the bundle (see scripts/vendor-marked.ts).
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
import { trustedPolicy, type SafeHtml } from '../security/trusted-types.js';
import {
  blockSource,
  DEFAULT_LABELS,
  htmlMode,
  lexBlocks,
  normalize,
  renderBlock,
  tailState,
  type MarkdownLabels,
  type MarkdownOptions,
} from './blocks.js';

export { markdown } from './directive.js';
export {
  hasHtmlSupport,
  hasLexer,
  hasTailSupport,
  loadHtmlSupport,
  loadLexer,
  loadTailSupport,
  needsLexer,
  type MarkdownLabels,
  type MarkdownOptions,
} from './blocks.js';
export { TRUSTED_TYPES_POLICY_NAME, type SafeHtml } from '../security/trusted-types.js';

/**
 * Renders agent markdown to an HTML string (TrustedHTML when Trusted Types exist), built by
 * the same pipeline as the directive. Prefer the `markdown()` directive in templates; this
 * is for one-off uses and tests. Await `loadLexer()` first (prose alone needs no lexer), and
 * with `allowHtml` `loadHtmlSupport()` too.
 */
export function renderMarkdown(text: string, options: MarkdownOptions = {}): SafeHtml {
  const allowHtml = htmlMode(options);
  const labels = options.labels ?? DEFAULT_LABELS;
  const source = normalize(text);
  const tail = tailState(source, !!options.streaming);
  const { blocks, links } = lexBlocks(allowHtml, source);
  const container = document.createElement('div');
  blocks.forEach((block, i) => {
    const last = i === blocks.length - 1;
    container.append(renderBlock(block, blockSource(block, last ? tail : 'settled'), links, allowHtml, labels, last && tail === 'typing')!);
  });
  const html = container.innerHTML;
  const tt = trustedPolicy();
  return tt ? tt.createHTML(html) : html;
}

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
