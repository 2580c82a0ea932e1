import { expect, waitUntil } from '@open-wc/testing';
import { html, render } from 'lit';
import { highlight as highlightChunk } from '../../src/chunks.js';
import { GRAMMARS } from '../../src/highlight/chunks.js';
import { markdown } from '../../src/markdown/markdown.js';
import { $, mount, sendByUser, unmountAll } from '../support/element.js';
import { mountMarkdown } from '../support/markdown.js';
import { createKey } from '../support/server.js';

/**
 * Fenced code with a language is highlighted from a lazy chunk (src/highlight/): built
 * from text nodes and spans, never parsed as HTML; while a block streams, its unfinished
 * last line stays plain.
 */
describe('highlighted code', () => {
  // The highlighter and the grammars these tests use, fetched once with time to spare: the
  // dev server's first transform of highlight.js took over 5 s on a loaded CI machine, in
  // both browsers at once, and each test's wait is about drawing, not about that fetch.
  before(async function () {
    this.timeout(60_000);
    await Promise.all([highlightChunk(), GRAMMARS.typescript!(), GRAMMARS.javascript!(), GRAMMARS.python!()]);
  });

  let box: HTMLElement;
  beforeEach(() => {
    box = document.createElement('div');
    document.body.append(box);
  });
  afterEach(() => {
    box.remove();
    unmountAll();
  });

  const highlighted = (root: ParentNode) =>
    waitUntil(() => root.querySelector('code.hljs'), 'the code was not highlighted', { timeout: 5000 });

  it('highlights a known language, with its label, from text nodes and spans only', async () => {
    const el = mountMarkdown('```ts\n// greet\nconst greeting: string = "<img src=x onerror=alert(1)>";\n```', {}, box);
    await highlighted(el);
    const code = el.querySelector('code')!;
    expect(el.querySelector('[part="code-block"] [part="code-language"]')!.textContent).to.equal('ts');
    expect(code.querySelector('.hljs-keyword')!.textContent).to.equal('const');
    expect(code.querySelector('.hljs-comment')!.textContent).to.equal('// greet');
    expect(code.querySelector('.hljs-string')!.textContent).to.equal('"<img src=x onerror=alert(1)>"');
    expect(code.querySelector('img')).to.equal(null);
    expect(code.textContent).to.equal('// greet\nconst greeting: string = "<img src=x onerror=alert(1)>";\n');
    for (const node of code.querySelectorAll('*')) expect(node.localName).to.equal('span');
  });

  it('labels a language it does not know and leaves the code plain', async () => {
    const el = mountMarkdown('```cobol\nDISPLAY "HI".\n```\n\n```js\nlet x;\n```', {}, box);
    await highlighted(el);
    const [cobol] = el.querySelectorAll('code');
    expect(el.querySelector('[part="code-language"]')!.textContent).to.equal('cobol');
    expect(cobol!.classList.contains('hljs')).to.equal(false);
    expect(cobol!.children.length).to.equal(0);
  });

  it('keeps the line being typed plain while a block streams, and highlights it once it ends', async () => {
    const prefix = '```js\nconst done = 1;\nconst typ';
    render(html`<div ${markdown(prefix, { streaming: true })}></div>`, box);
    await highlighted(box);
    // Drawn again once the grammar is here (as the next token would).
    render(html`<div ${markdown(prefix + 'i', { streaming: true })}></div>`, box);
    const code = box.querySelector('code')!;
    expect(code.classList.contains('hljs')).to.equal(true);
    expect(code.lastChild!.nodeType, 'the last line is a plain text node').to.equal(Node.TEXT_NODE);
    expect(code.lastChild!.textContent).to.equal('const typi\n');
    expect(code.querySelectorAll('.hljs-keyword')).to.have.length(1);

    render(html`<div ${markdown(prefix + 'ing = 2;\n', { streaming: true })}></div>`, box);
    expect(box.querySelector('code')!.querySelectorAll('.hljs-keyword')).to.have.length(2);
    render(html`<div ${markdown(prefix + 'ing = 2;\n```', { streaming: false })}></div>`, box);
    expect(box.querySelector('code')!.querySelectorAll('.hljs-keyword')).to.have.length(2);
  });

  it('is coloured in the widget, differently in light and dark', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: '```python\ndef hello():\n    return 42\n```' }] });
    const colours: string[] = [];
    for (const theme of ['light', 'dark']) {
      const el = await mount({ 'publishable-key': key, theme });
      await sendByUser(el, 'code');
      await highlighted(el.shadowRoot!);
      const keyword = $(el, '.message.agent:not(.welcome) .hljs-keyword')!;
      const background = getComputedStyle($(el, '.message.agent:not(.welcome) [part="code-block"]')!).backgroundColor;
      colours.push(`${getComputedStyle(keyword).color} on ${background}`);
      expect(getComputedStyle(keyword).color).to.not.equal(getComputedStyle($(el, '.message.agent:not(.welcome) code')!).color);
      el.remove();
    }
    expect(colours[0]).to.not.equal(colours[1]);
  });
});
