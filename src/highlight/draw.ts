import { highlight as highlightChunk } from '../markdown/chunks.js';

/**
 * The eager side of highlighted code (the chunk is this folder's index.ts): a fenced block
 * that names its language is highlighted once the highlighter is here, and fetches it the
 * first time. The markdown renderer calls this for each such block (src/markdown/decorate.ts).
 * `typing`: the block is a streaming tail whose last line is unfinished (it stays plain).
 */
export function highlight(code: HTMLElement, language: string, typing: boolean): void {
  const loaded = highlightChunk.module;
  if (loaded) return loaded.highlight(code, language, typing);
  // Drawn before the highlighter arrived: highlighted when it does, if still shown. Offline
  // or blocked, the code stays plain; the next block tries again (src/lazy.ts).
  highlightChunk().then(
    (module) => code.isConnected && module.highlight(code, language, typing),
    () => {},
  );
}
