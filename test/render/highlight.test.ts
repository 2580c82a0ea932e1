import { expect, waitUntil } from '@open-wc/testing';
import type { LanguageFn } from 'highlight.js';
import { html, render } from 'lit';
import { highlight as highlightChunk } from '../../src/markdown/chunks.js';
import { GRAMMARS } from '../../src/highlight/chunks.js';
import { PIECE_CHARS, PLAIN_CHARS } from '../../src/highlight/pieces.js';
import { BUDGET_MS, BUDGET_MS_PER_KB } from '../../src/highlight/highlight.js';
import { SLICE_MS, STEP_CHARGE_MS } from '../../src/highlight/slices.js';
import { chunk } from '../../src/lazy.js';
import { loadHtmlSupport, markdown } from '../../src/markdown/markdown.js';
import { $, mount, sendByUser, unmountAll } from '../support/element.js';
import { mountMarkdown } from '../support/markdown.js';
import { createKey } from '../support/server.js';
import { SLOW_CODE, slowCode, type SlowLanguage } from '../support/slow-code.js';

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
    await Promise.all([
      highlightChunk(),
      ...['typescript', 'javascript', 'python', 'c', 'cpp', 'csharp', 'java'].map((g) => GRAMMARS[g]!()),
    ]);
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

  /** `code` drawn plain: no colours, its text in blocks of at most PLAIN_CHARS that end at line ends (a longer line alone). */
  function expectPlainBlocks(code: HTMLElement): void {
    expect(code.classList.contains('hljs'), 'not highlighted').to.equal(false);
    expect(code.classList.contains('plain-code'), 'drawn by the code module').to.equal(true);
    const rest = code.lastChild!.nodeType === Node.TEXT_NODE ? code.lastChild!.textContent! : '';
    expect(rest.length <= PLAIN_CHARS || !rest.slice(0, -1).includes('\n'), 'the rest, at most a block or one line').to.equal(true);
    expect(code.querySelector('[class]'), 'no coloured span').to.equal(null);
    const blocks = Array.from(code.children);
    expect(blocks.length, 'in blocks').to.be.at.least(Math.floor(code.textContent!.length / PLAIN_CHARS) - 1);
    for (const block of blocks) {
      const text = block.textContent!;
      expect(block.localName).to.equal('span');
      expect(text.endsWith('\n'), 'a block ends at a line end').to.equal(true);
      if (text.length > PLAIN_CHARS) expect(text.indexOf('\n'), 'only a line longer than a block is longer').to.equal(text.length - 1);
      // Laid out as blocks where the code module's styles are adopted (a widget's shadow root).
      if (code.getRootNode() instanceof ShadowRoot) expect(getComputedStyle(block).display).to.equal('block');
    }
  }

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

  /** Console warnings while `run` runs: a block shown plain is not something that went wrong. */
  async function warningsOf(run: () => Promise<void>): Promise<string[]> {
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      await run();
    } finally {
      console.warn = warn;
    }
    return warnings;
  }

  for (const language of Object.keys(SLOW_CODE) as SlowLanguage[]) {
    it(`streams 80 KB of ${language} its grammar is slow on, drawing each piece once over the same block`, async function () {
      this.timeout(60_000);
      const code = slowCode(SLOW_CODE[language].lines, 80 * 1024);
      const key = await createKey({ paceMs: 0, chunkChars: 256, replies: [{ text: `\`\`\`${language}\n${code}\`\`\`` }] });
      const el = await mount({ 'publishable-key': key });
      // Every <code> the reply shows, and what each change to one adds.
      const codes = new Set<Element>();
      const added: number[] = [];
      const observer = new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes)
            if (node instanceof Element) for (const c of [node, ...node.querySelectorAll('*')]) if (c.localName === 'code') codes.add(c);
          const target = record.target as Element;
          if (target.localName === 'code' && [...record.addedNodes].some((node) => node instanceof Element))
            added.push([...record.addedNodes].reduce((sum, node) => sum + (node.textContent ?? '').length, 0));
        }
      });
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      const warnings = await warningsOf(() => sendByUser(el, 'code'));
      observer.disconnect();
      const shown = $(el, '.message.agent:not(.welcome) code')!;
      expect(shown.textContent, 'the code, whole').to.equal(code);
      // Drawn once, then in place: a draw per frame rebuilt the whole block (40-85 ms at 16-32 KB).
      expect(codes.size, 'one <code> for the block').to.equal(1);
      expect(codes.has(shown)).to.equal(true);
      expect(Math.max(0, ...added), 'each change adds one highlighted piece at most').to.be.at.most(PIECE_CHARS);
      expect(warnings, 'nothing said').to.deep.equal([]);
      expect($(el, '[part="error"]')).to.equal(null);
    });
  }

  describe('with a grammar that takes long (injected)', () => {
    /** Each call's input length, and the task it ran in (a counter a zero-delay timer advances). */
    let calls: Array<{ chars: number; task: number }> = [];
    let task = 0;
    let ticking = true;
    /** Busy time per call, in milliseconds. */
    let cost = 0;
    const tick = () => {
      task++;
      if (ticking) setTimeout(tick);
    };
    // Every line starts with `slow`, so every piece: its match at 0 is a call's first.
    const slowGrammar: LanguageFn = () => ({
      name: 'slow',
      contains: [
        {
          scope: 'keyword',
          begin: /\bslow\b/,
          'on:begin': (match: RegExpMatchArray) => {
            if (match.index !== 0) return;
            calls.push({ chars: match.input!.length, task });
            for (const until = performance.now() + cost; performance.now() < until;);
          },
        },
      ],
    });

    before(() => {
      GRAMMARS.slow = chunk(() => Promise.resolve({ default: slowGrammar }));
    });
    after(() => delete GRAMMARS.slow);
    beforeEach(() => {
      calls = [];
      task = 0;
      ticking = true;
      tick();
    });
    afterEach(() => void (ticking = false));

    it('reads at most a piece per call, and highlights in tasks of about SLICE_MS with the page running between', async () => {
      cost = 3;
      // Numbered: pieces of the same text would be highlighted once (the cache).
      const code = Array.from({ length: 400 }, (_, i) => `slow ${1000 + i}\n`).join('');
      const box = document.createElement('div');
      document.body.append(box);
      const el = mountMarkdown('```slow\n' + code + '```', {}, box);
      await waitUntil(() => el.querySelectorAll('.hljs-keyword').length === 400, 'the block was not highlighted', { timeout: 10_000 });
      expect(Math.max(...calls.map((c) => c.chars)), 'the longest input of a call').to.be.at.most(PIECE_CHARS);
      const perTask = new Map<number, number>();
      for (const call of calls) perTask.set(call.task, (perTask.get(call.task) ?? 0) + 1);
      expect(perTask.size, 'tasks that highlighted').to.be.above(1);
      // A task stops once SLICE_MS are spent.
      expect(Math.max(...perTask.values()), 'calls in one task').to.be.at.most(Math.ceil(SLICE_MS / cost));
      box.remove();
    });

    it('shows a block plain once it costs more than its budget, and says nothing', async function () {
      this.timeout(20_000);
      // Each call counts STEP_CHARGE_MS, two calls a KB: more than the budget's share of a KB,
      // so 48 KB run out of it before their end.
      cost = STEP_CHARGE_MS;
      expect(2 * STEP_CHARGE_MS * 48).to.be.above(BUDGET_MS + 48 * BUDGET_MS_PER_KB);
      const code = Array.from({ length: 4800 }, (_, i) => `slow ${1000 + i}\n`).join('');
      const box = document.createElement('div');
      document.body.append(box);
      const draw = (text: string) => render(html`<div ${markdown(text, {})}></div>`, box);
      const warnings = await warningsOf(async () => {
        draw('```slow\n' + code + '```');
        // Highlighted for a while (calls were made), then plain. Drawn again as a stream draws
        // it (a character more each time): each draw takes a step in its own task's allowance,
        // so the budget runs out on draws, not on the slices' timers, which a page sharing its
        // thread with another (Firefox runs the test files of one site in one process) may
        // get seconds apart.
        for (let i = 1; i <= 200 && box.querySelector('code')!.classList.contains('hljs'); i++) {
          draw('```slow\n' + code + '#'.repeat(i) + '\n```');
          await Promise.resolve();
        }
        draw('```slow\n' + code + '```');
        await waitUntil(() => calls.length && !box.querySelector('code')!.classList.contains('hljs'), 'the block was still highlighted', {
          timeout: 5000,
        });
      });
      const shown = box.querySelector('code')!;
      expectPlainBlocks(shown);
      expect(shown.textContent).to.equal(code);
      expect(warnings).to.deep.equal([]);
      // Drawn again (grown, or a frame later), it stays plain and costs nothing more.
      const before = calls.length;
      draw('```slow\n' + code + 'slow\n```');
      // A task later: slices queued by the draw would have run.
      await new Promise((resolve) => setTimeout(resolve));
      expect(box.querySelector('code')).to.equal(shown);
      expect(shown.textContent).to.equal(code + 'slow\n');
      expect(calls.length).to.equal(before);
      box.remove();
    });
  });

  it('draws a streamed block over its previous draw: only the piece being written changes', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => (i % 6 === 5 ? '\n' : `const value${i} = compute(${i}, "label ${i}");\n`));
    const box = document.createElement('div');
    document.body.append(box);
    const draw = (text: string, streaming: boolean) => render(html`<div ${markdown(text, { streaming })}></div>`, box);
    draw('```ts\n' + lines[0], true);
    const code = box.querySelector('code')!;
    const removed: number[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) removed.push([...record.removedNodes].reduce((sum, node) => sum + (node.textContent ?? '').length, 0));
    });
    observer.observe(box, { childList: true, subtree: true });
    for (let i = 2; i <= lines.length; i++) {
      draw('```ts\n' + lines.slice(0, i).join('') + 'const typ', true);
      await new Promise((resolve) => setTimeout(resolve));
    }
    draw('```ts\n' + lines.join('') + '```', false);
    observer.disconnect();
    expect(box.querySelector('code'), 'the same <code>').to.equal(code);
    expect(Math.max(...removed), 'what a frame takes out: the piece being written').to.be.at.most(PIECE_CHARS);
    // The same as the block drawn at once, once both are done.
    const settled = mountMarkdown('```ts\n' + lines.join('') + '```', {}, document.body.appendChild(document.createElement('div')));
    await waitUntil(() => settled.innerHTML === box.firstElementChild!.innerHTML, 'not the settled render', { timeout: 5000 });
    settled.parentElement!.remove();
    box.remove();
  });

  it('draws long plain code (a language without a grammar) in blocks over its previous draw, as the block drawn at once', async () => {
    // A line longer than a block, among ordinary ones: it is a block of its own, never cut.
    const lines = Array.from({ length: 700 }, (_, i) =>
      i === 350 ? 'x'.repeat(PLAIN_CHARS + 100) + '\n' : `plain line ${i}: output without colours\n`,
    );
    const box = document.createElement('div');
    document.body.append(box);
    const draw = (text: string, streaming: boolean) => render(html`<div ${markdown(text, { streaming })}></div>`, box);
    draw('```text\n' + lines[0], true);
    await waitUntil(() => box.querySelector('code.plain-code'), 'not drawn by the code module', { timeout: 5000 });
    const code = box.querySelector('code')!;
    let first: Element | null = null;
    const removed: number[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) removed.push([...record.removedNodes].reduce((sum, node) => sum + (node.textContent ?? '').length, 0));
    });
    observer.observe(box, { childList: true, subtree: true });
    for (let i = 2; i <= lines.length; i += 5) {
      draw('```text\n' + lines.slice(0, i).join('') + 'part of a li', true);
      first ??= code.firstElementChild;
    }
    draw('```text\n' + lines.join('') + '```', false);
    observer.disconnect();
    expect(box.querySelector('code'), 'the same <code>').to.equal(code);
    expect(code.firstElementChild, 'the first block, drawn once').to.equal(first);
    expect(
      removed.filter((n) => n > 0),
      'nothing drawn is taken out',
    ).to.deep.equal([]);
    expect(code.textContent).to.equal(lines.join(''));
    expectPlainBlocks(code);
    // The same as the block drawn at once.
    const settled = mountMarkdown('```text\n' + lines.join('') + '```', {}, document.body.appendChild(document.createElement('div')));
    await waitUntil(() => settled.innerHTML === box.firstElementChild!.innerHTML, 'not the settled render', { timeout: 5000 });
    settled.parentElement!.remove();
    box.remove();
  });

  it('lays out plain code blocks as blocks in the widget', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `$ step ${i} done\n`).join('');
    const key = await createKey({ paceMs: 0, chunkChars: 512, replies: [{ text: '```output\n' + text + '```' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'log');
    const code = $(el, '.message.agent:not(.welcome) code')!;
    await waitUntil(() => code.classList.contains('plain-code'), 'not drawn by the code module', { timeout: 5000 });
    expect(code.textContent).to.equal(text);
    expectPlainBlocks(code);
    // Selected and copied, the blocks give the code's own line breaks, and nothing more (Chromium
    // leaves out the last one, which ends no rendered line).
    getSelection()!.selectAllChildren(code);
    expect(getSelection()!.toString().replace(/\n$/, '')).to.equal(text.slice(0, -1));
    getSelection()!.removeAllRanges();
  });

  it('leaves markup inside code it would not colour as it is (allow-html)', async () => {
    await loadHtmlSupport();
    const el = mountMarkdown('<pre><code class="language-foo">a <mark>b</mark></code></pre>', { allowHtml: true }, box);
    await highlightChunk();
    await new Promise((resolve) => setTimeout(resolve));
    expect(el.querySelector('code mark')?.textContent).to.equal('b');
  });

  it('highlights an 80 KB block, and leaves one past 100,000 characters plain without a word', async () => {
    const line = 'const greeting = "hello";\n';
    const box = document.createElement('div');
    document.body.append(box);
    const warnings = await warningsOf(async () => {
      const lines = Math.floor(80_000 / line.length);
      const long = mountMarkdown('```js\n' + line.repeat(lines) + '```', {}, box);
      await waitUntil(() => long.querySelectorAll('.hljs-string').length === lines, 'the block was not highlighted to its end', {
        timeout: 10_000,
      });
      const longer = mountMarkdown('```js\n' + line.repeat(100_001 / line.length + 1) + '```', {}, box);
      expectPlainBlocks(longer.querySelector('code')!);
    });
    expect(warnings).to.deep.equal([]);
    box.remove();
  });
});
