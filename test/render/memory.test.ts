import { expect } from '@open-wc/testing';
import { mountMarkdown } from '../support/markdown.js';

/**
 * What a streamed reply leaves on the heap (#29): each block's tokens and cache key were
 * slices of the text of the frame that lexed them, and a slice keeps its whole string
 * alive, so a reply held a copy of itself per block (1 MB: 926 MB). Chromium only: it has
 * gc() and an exact heap size with the runner's flags; Firefox has neither.
 */
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;

/** About `chars` of the markdown replies are made of: paragraphs, lists, code, a table, quotes. */
function reply(chars: number): string {
  const parts = [
    'A paragraph with **bold**, `code` and a [link](https://example.com/a) in it, long enough to wrap once.\n\n',
    '- an item\n- another item with *emphasis*\n- a third\n\n',
    '```ts\nconst answer = compute(42);\nconsole.log(answer);\n```\n\n',
    '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
    '> a quote that goes on for a while\n\n',
  ];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += parts[i % parts.length];
  return text;
}

describe('a streamed reply on the heap', () => {
  it('after 100 KB streamed a few characters at a time, the heap holds a small multiple of the text', async function () {
    if (!gc || heap() === undefined) this.skip();
    // About 1,250 draws: seconds on a loaded 2-core machine.
    this.timeout(60_000);
    const full = reply(100_000);
    const container = document.createElement('div');
    document.body.append(container);
    gc!();
    const before = heap()!;
    // Built as the store builds it, by appending: each frame's text is a string of its own.
    let text = '';
    for (let i = 0; i < full.length; i += 80) {
      text += full.slice(i, i + 80);
      mountMarkdown(text, { streaming: true }, container);
    }
    gc!();
    const grown = heap()! - before;
    container.remove();
    // The text itself (UTF-16 at worst: 200 KB), its tokens and the DOM's wrappers: a few MB.
    // One copy per block, as before, is hundreds of MB.
    expect(grown, `${(grown / 1e6).toFixed(1)} MB`).to.be.below(20e6);
  });
});
