import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { html, render } from 'lit';
import { loadHtmlSupport, markdown } from '../../src/markdown/markdown.js';
import { mountMarkdown, oneShot, streamThrough } from '../support/markdown.js';

// A hand-written corpus covering the block types whose boundaries matter to the incremental
// renderer, GFM extensions included. The CommonMark spec examples (npm `commonmark-spec`)
// are streamed the same way in commonmark.test.ts.
const CORPUS = [
  '# Heading\n\nA paragraph with **bold** and *em*.',
  'Setext heading\n==============\n\nAnd another\n---\n\ntext',
  'Line one\nline two\n\nLine three  \nhard break',
  '- a\n- b\n- c',
  '- a\n\n- b\n\n- c\n\nafter',
  '1. one\n2. two\n   1. nested\n   2. nested two\n3. three',
  '- a\n  - b\n    - c\n      deep paragraph\n- d',
  '* star\n+ plus\n- dash',
  '- [x] done\n- [ ] todo\n- plain',
  '> quote\n> more\n\n> another\n>\n> > nested quote',
  '> quote with list\n> - a\n> - b\n\nout',
  '```js\nconst a = 1;\n\nconst b = 2;\n```\n\ntext after',
  '~~~\ntilde fence\n~~~',
  '````md\n```\ninner fence\n```\n````',
  '    indented code\n    more\n\npara',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter table',
  'intro\n\n| left | right |\n|:-----|------:|\n| `x` | **y** |',
  'a | b\n--|--\n1 | 2',
  '[link](https://example.com) and <https://auto.example> and https://bare.example',
  '![img](https://img.example/a.png "title") and [ref link][r]\n\n[r]: https://ref.example',
  'Text with [a ref][x] first.\n\nMore text.\n\n[x]: https://late.example "Late"',
  '*a **b** c* and ***both*** and _under_ and __double__',
  '~~strike~~ and ~single~ and `code ``with`` ticks`',
  'Escapes: \\*not em\\* and \\`not code\\` and \\[not link\\]',
  'HTML <b>inline</b> and <span class="x">span</span>',
  '<div>\nblock html\n</div>\n\nafter html',
  '<!-- comment -->\n\ntext\n\n<!-- unclosed',
  '<textarea>\n\n**still markdown**',
  'Entities: &amp; &lt; &copy; &#169; &#xA9;',
  '---\n\n***\n\n___',
  'Paragraph\n\n\n\n\nwith many blank lines\n\n\n',
  '1) paren list\n2) two\n\n10. ten\n11. eleven',
  '- item\n\n      code in item\n\n- item two',
  'Mixed **bold `code` inside** and [link with *em*](https://x.example)',
  '# H1\n## H2\n### H3\n#### H4\n##### H5\n###### H6',
  'Trailing spaces   \n\t\ttabs\there',
  'Unicode: 日本語の**強調**とعربي *مائل*',
  'A very long paragraph '.repeat(30) + '\n\nend',
  '> ```\n> code in quote\n> ```\n\n- ```\n  code in list\n  ```',
  'Footnote-like [1] and [^2] and [brackets] without links.',
  '| only header |\n|---|\n\ntext',
  '2 * 3 * 4 = 24 and snake_case_name and a*b*c',
];

describe('markdown() directive', () => {
  // The opt-in HTML pipeline loads DOMPurify on demand, as the element does before rendering.
  before(() => loadHtmlSupport());

  let container: HTMLElement;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  it('equals the one-shot render for every corpus document streamed at random points', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CORPUS), fc.array(fc.nat(), { maxLength: 25 }), fc.boolean(), (doc, rawCuts, allowHtml) => {
        const box = document.createElement('div');
        const cuts = rawCuts.map((n) => n % (doc.length + 1));
        const el = streamThrough(doc, cuts, { allowHtml }, box);
        expect(el.innerHTML).to.equal(oneShot(doc, { allowHtml }));
      }),
      { numRuns: 300 },
    );
  });

  it('equals the one-shot render when every character arrives on its own', () => {
    for (const doc of CORPUS) {
      const box = document.createElement('div');
      const cuts = Array.from({ length: doc.length }, (_, i) => i);
      expect(streamThrough(doc, cuts, {}, box).innerHTML, doc).to.equal(oneShot(doc, {}));
    }
  });

  it('equals the one-shot render for random concatenations of markdown fragments', () => {
    const fragments = [
      '# h',
      '\n',
      '\n\n',
      '- ',
      '1. ',
      '> ',
      '**',
      '*',
      '_',
      '`',
      '```',
      '~~',
      '| ',
      ' |',
      '|---|',
      '[',
      '](',
      'https://x.example',
      ')',
      '![',
      '<b>',
      '</b>',
      '<div>',
      '<!--',
      '-->',
      'word',
      ' ',
      '    ',
      '---',
      '===',
      '\\',
      '&amp;',
      '[r]: /u\n',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...fragments), { maxLength: 40 }).map((parts) => parts.join('')),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        (doc, rawCuts, allowHtml) => {
          const box = document.createElement('div');
          const cuts = rawCuts.map((n) => n % (doc.length + 1));
          expect(streamThrough(doc, cuts, { allowHtml }, box).innerHTML, JSON.stringify(doc)).to.equal(oneShot(doc, { allowHtml }));
        },
      ),
      { numRuns: 300 },
    );
  });

  // The guard for half-typed syntax guesses only about the line being typed (tail.ts): once a
  // reply's last line has its line break, the DOM after its last delta is the settled DOM,
  // so the final `message` frame changes nothing on screen. The one guess it keeps past a
  // line break, a pipe line waiting for a table's delimiter row, is left out.
  it('shows the settled DOM after the last delta of any reply ending in a line break', () => {
    const fragments = [
      '# ',
      '\n',
      '\n\n',
      '- ',
      '1. ',
      '2.',
      '> ',
      '**',
      '*',
      '_',
      '__',
      '`',
      '``',
      '```',
      '~~',
      '~',
      '| ',
      ' |',
      '|---|',
      '[',
      ']',
      '](',
      'https://x.example',
      ')',
      '![',
      '<b>',
      '\\',
      '&amp;',
      'word',
      ' ',
      '  ',
      '    ',
      '---',
      '===',
      '(',
      '"',
      '.',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 30 }).map((parts) => parts.join('') + '\n'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (doc, rawCuts) => {
          fc.pre(!/(?:^|\n) {0,3}\|[^\n]*\n$/.test(doc));
          const box = document.createElement('div');
          for (const cut of [...new Set(rawCuts.map((n) => n % doc.length))].sort((a, b) => a - b)) {
            mountMarkdown(doc.slice(0, cut), { streaming: true }, box);
          }
          const lastDelta = mountMarkdown(doc, { streaming: true }, box).innerHTML;
          expect(lastDelta, JSON.stringify(doc)).to.equal(mountMarkdown(doc, { streaming: false }, box).innerHTML);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('matches the one-shot streaming render while streaming, too', () => {
    for (const doc of CORPUS) {
      const box = document.createElement('div');
      for (let cut = 1; cut <= doc.length; cut += 7) {
        const el = mountMarkdown(doc.slice(0, cut), { streaming: true }, box);
        expect(el.innerHTML, JSON.stringify(doc.slice(0, cut))).to.equal(oneShot(doc.slice(0, cut), { streaming: true }));
      }
    }
  });

  it('keeps the DOM nodes of finished blocks when more tokens arrive', () => {
    const first = '# Title\n\nFirst paragraph.\n\n- item\n\n';
    let el = mountMarkdown(first + 'Tail is gro', { streaming: true }, container);
    const heading = el.querySelector('h1')!;
    const paragraph = el.querySelector('p')!;
    const list = el.querySelector('ul')!;
    el = mountMarkdown(first + 'Tail is growing **bold', { streaming: true }, container);
    el = mountMarkdown(first + 'Tail is growing **bold** now.\n\n```js\nx', { streaming: true }, container);
    el = mountMarkdown(first + 'Tail is growing **bold** now.\n\n```js\nx = 1\n```\n\nDone.', { streaming: false }, container);
    expect(el.querySelector('h1')).to.equal(heading);
    expect(el.querySelector('p')).to.equal(paragraph);
    expect(el.querySelector('ul')).to.equal(list);
    expect(heading.isConnected && paragraph.isConnected && list.isConnected).to.equal(true);
    expect(el.querySelector('strong')!.textContent).to.equal('bold');
  });

  it('touches only the tail when a token arrives at the end of a long reply', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with *some* text.`).join('\n\n');
    const el = mountMarkdown(long + '\n\nTail', { streaming: true }, container);
    const firstChildren = Array.from(el.children).slice(0, 200);
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((r) => records.push(...r));
    observer.observe(el, { childList: true, subtree: true, characterData: true, attributes: true });
    mountMarkdown(long + '\n\nTail grows', { streaming: true }, container);
    await Promise.resolve();
    records.push(...observer.takeRecords());
    observer.disconnect();
    const touched = records.flatMap((r) => [...Array.from(r.addedNodes), ...Array.from(r.removedNodes)]);
    expect(touched.length).to.be.at.most(4);
    expect(Array.from(el.children).slice(0, 200)).to.deep.equal(firstChildren);
  });

  it('re-renders from the first block whose source changed', () => {
    let el = mountMarkdown('one\n\ntwo\n\nthree', {}, container);
    const [p1, p2] = Array.from(el.querySelectorAll('p'));
    el = mountMarkdown('one\n\nTWO\n\nthree', {}, container);
    const after = Array.from(el.querySelectorAll('p'));
    expect(after[0]).to.equal(p1);
    expect(after[1]).not.to.equal(p2);
    expect(el.textContent!.replace(/\n/g, '')).to.equal('oneTWOthree');
  });

  it('re-renders everything when the labels change', () => {
    let el = mountMarkdown('```\nx\n```', { labels: { copyCode: 'Copy', table: 'Table' } }, container);
    expect(el.querySelector('button')!.textContent).to.equal('Copy');
    el = mountMarkdown('```\nx\n```', { labels: { copyCode: 'コピー', table: '表' } }, container);
    expect(el.querySelector('button')!.textContent).to.equal('コピー');
  });

  it('draws a message that could not be drawn as its text, and its next draw replaces that text', () => {
    // A fault in the middle of a draw: the first block's insertion into the message throws
    // (after a first render, so that lit-html itself inserts nothing meanwhile).
    mountMarkdown('', {}, container);
    const insertBefore = Element.prototype.insertBefore;
    let faults = 1;
    Element.prototype.insertBefore = function <T extends Node>(this: Element, node: T, child: Node | null): T {
      if (faults-- > 0) throw new Error('injected');
      return insertBefore.call(this, node, child) as T;
    };
    let el: HTMLElement;
    try {
      el = mountMarkdown('One **part**', {}, container);
    } finally {
      Element.prototype.insertBefore = insertBefore;
    }
    expect(el.innerHTML).to.equal('<p class="plain" dir="auto">One **part**</p>');
    el = mountMarkdown('One **part** and more', {}, container);
    expect(el.innerHTML).to.equal('<p dir="auto">One <strong>part</strong> and more</p>');
  });

  it('refuses to be used outside element position', () => {
    expect(() => render(html`<div>${markdown('x')}</div>`, container)).to.throw(/element position/);
  });
});
