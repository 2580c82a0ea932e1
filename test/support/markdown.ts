import { html, render } from 'lit';
import { loadLexer, loadTailSupport, markdown, renderMarkdown, type MarkdownOptions } from '../../src/markdown/markdown.js';

// The lexer and the guard for half-typed syntax are chunks the panel fetches when a thread
// loads or a turn starts; here, at once (test/render/lexer.test.ts draws without them).
await Promise.all([loadLexer(), loadTailSupport()]);

/** Renders `text` through the markdown() directive into `container` (re-using its instance). */
export function mountMarkdown(text: string, options: MarkdownOptions, container: HTMLElement): HTMLElement {
  render(html`<div ${markdown(text, options)}></div>`, container);
  return container.firstElementChild as HTMLElement;
}

/** The one-shot render of `text`, as HTML. */
export function oneShot(text: string, options: MarkdownOptions): string {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(text, options) as unknown as string;
  return div.innerHTML;
}

/** Every prefix at `cuts` while streaming, then the whole text settled, in one directive. */
export function streamThrough(text: string, cuts: number[], options: MarkdownOptions, container: HTMLElement): HTMLElement {
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    mountMarkdown(text.slice(0, cut), { ...options, streaming: true }, container);
  }
  return mountMarkdown(text, { ...options, streaming: false }, container);
}
