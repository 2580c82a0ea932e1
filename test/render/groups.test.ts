import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { mountMarkdown, oneShot, streamThrough } from '../support/markdown.js';

/**
 * A long reply's blocks after the first 64 go into boxes of 64 (`.g`, src/markdown/directive.ts
 * GROUP_BITS): a frame that grows the last block then places the boxes and one box's blocks, not
 * every block of the reply (BENCHMARKS.md "A long reply in boxes").
 */
const GROUP = 64;

/** The element's HTML with every box replaced by its blocks: what the reply shows, in order. */
function flat(el: HTMLElement): string {
  const copy = el.cloneNode(true) as HTMLElement;
  for (const box of Array.from(copy.querySelectorAll(':scope > .g'))) box.replaceWith(...Array.from(box.childNodes));
  return copy.innerHTML;
}

/** The first GROUP blocks in the element and the rest in full boxes of GROUP but the last, none empty. */
function expectBoxes(el: HTMLElement, blocks: number): void {
  const children = Array.from(el.children);
  const direct = children.filter((c) => !c.classList.contains('g'));
  const boxes = children.filter((c) => c.classList.contains('g'));
  expect(direct.length, 'blocks in the element').to.equal(Math.min(blocks, GROUP));
  // The boxes come after every block of the element.
  expect(children.slice(0, direct.length)).to.deep.equal(direct);
  expect(boxes.map((b) => b.children.length)).to.deep.equal(
    Array.from({ length: Math.ceil(Math.max(0, blocks - GROUP) / GROUP) }, (_, i) => Math.min(GROUP, blocks - GROUP * (i + 1))),
  );
}

const paragraphs = (n: number, word = 'Paragraph') => Array.from({ length: n }, (_, i) => `${word} ${i} with *some* text.`).join('\n\n');

describe('markdown() directive: a long reply in boxes', () => {
  let container: HTMLElement;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  it('puts the blocks after the 64th in boxes of 64, in order, and a short reply in none', () => {
    const el = mountMarkdown(paragraphs(200), {}, container);
    expectBoxes(el, 200);
    expect(el.querySelectorAll('.g').length).to.equal(3);
    expect(flat(el)).to.equal(oneShot(paragraphs(200), {}));
    expect(Array.from(el.querySelectorAll('p'), (p) => p.textContent)).to.deep.equal(
      Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with some text.`),
    );

    const short = mountMarkdown(paragraphs(64), {}, document.createElement('div'));
    expect(short.querySelector('.g')).to.equal(null);
    expect(short.children.length).to.equal(64);
  });

  it('grows a streamed reply block by block into its boxes, keeping every finished block', () => {
    const text = paragraphs(150);
    let el = mountMarkdown(text.slice(0, 4_000), { streaming: true }, container);
    const early = Array.from(el.querySelectorAll('p')).slice(0, 40);
    for (let end = 4_000; end < text.length; end += 377) el = mountMarkdown(text.slice(0, end), { streaming: true }, container);
    el = mountMarkdown(text, { streaming: false }, container);
    expectBoxes(el, 150);
    expect(Array.from(el.querySelectorAll('p')).slice(0, 40)).to.deep.equal(early);
    expect(flat(el)).to.equal(oneShot(text, {}));
  });

  it('keeps the order when a change redraws from an early block, and leaves no empty box when the reply shrinks', () => {
    const text = paragraphs(200);
    let el = mountMarkdown(text, {}, container);
    // A link definition makes every block lex again: all are drawn anew, before the boxes that stay.
    const changed = text + '\n\n[r]: https://ref.example';
    el = mountMarkdown(changed, {}, container);
    expect(flat(el)).to.equal(oneShot(changed, {}));
    expectBoxes(el, 200);
    el = mountMarkdown(paragraphs(200, 'Other'), {}, container);
    expect(flat(el)).to.equal(oneShot(paragraphs(200, 'Other'), {}));
    el = mountMarkdown(paragraphs(70), {}, container);
    expectBoxes(el, 70);
    el = mountMarkdown(paragraphs(10), {}, container);
    expectBoxes(el, 10);
    expect(el.querySelector('.g')).to.equal(null);
  });

  it('streamed at random points, equals the reply drawn at once, in the same boxes', function () {
    // 40 replies of up to 160 blocks, each drawn about 14 times: seconds on a loaded machine.
    this.timeout(60_000);
    const fragment = fc.constantFrom('Para **b**', '- a\n- b', '```\ncode\n```', '> quote', '# Head', '| a |\n|---|\n| 1 |', '1. one');
    fc.assert(
      fc.property(
        fc.array(fragment, { minLength: 60, maxLength: 160 }).map((parts) => parts.join('\n\n')),
        fc.array(fc.nat(), { maxLength: 12 }),
        (doc, rawCuts) => {
          const box = document.createElement('div');
          const el = streamThrough(
            doc,
            rawCuts.map((n) => n % (doc.length + 1)),
            {},
            box,
          );
          const once = mountMarkdown(doc, {}, document.createElement('div'));
          expect(el.innerHTML, JSON.stringify(doc)).to.equal(once.innerHTML);
          expect(flat(el)).to.equal(oneShot(doc, {}));
        },
      ),
      { numRuns: 40 },
    );
  });
});
