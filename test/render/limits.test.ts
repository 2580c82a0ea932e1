import { expect } from '@open-wc/testing';
import { loadHtmlSupport, renderMarkdown } from '../../src/markdown/markdown.js';
import { plainSummary } from '../../src/markdown/plain.js';
import { Lexer, type Token } from '../../src/markdown/vendor/marked.js';
import { LIMITS } from '../../src/markdown/lex.js';
import { streamThrough } from '../support/markdown.js';

/**
 * Hostile markdown (issue: "No reply, card or setting may break the widget"): nesting that
 * overflowed marked's recursive descent, delimiter-dense runs its inline pass handles in
 * quadratic time, and link text that reads as another address than the link's.
 */
function dom(text: string, options: Parameters<typeof renderMarkdown>[1] = {}): HTMLDivElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(text, options) as unknown as string;
  return div;
}

/** The families that overflowed the lexer's stack at 1,000-2,000 levels. */
export const DEEP: Record<string, (levels: number) => string> = {
  blockquotes: (n) => '> '.repeat(n) + 'deep',
  'list markers': (n) => '- '.repeat(n) + 'deep',
  'ordered lists': (n) => '1. '.repeat(n) + 'deep',
  // Indentation grows with the level: 2,000 levels are already 4 MB of text.
  'indented lists': (n) => Array.from({ length: Math.min(n, 2000) }, (_, i) => ' '.repeat(i * 2) + '- deep').join('\n'),
  strong: (n) => '**a '.repeat(n) + 'deep' + ' a**'.repeat(n),
  emphasis: (n) => '*a '.repeat(n) + 'deep' + ' a*'.repeat(n),
  links: (n) => '[a '.repeat(n) + 'deep' + '](https://x.example)'.repeat(n),
};

describe('markdown limits', () => {
  before(() => loadHtmlSupport());

  for (const [family, make] of Object.entries(DEEP)) {
    it(`nesting: 5,000 levels of ${family} render as plain text, the blocks around them as markdown`, () => {
      // Beyond what marked's recursion survives in either browser (Firefox's stack is deeper).
      const deep = make(5000);
      for (const allowHtml of [false, true]) {
        const div = dom(`**before**\n\n${deep}\n\n*after*`, { allowHtml });
        expect(div.querySelector('strong')?.textContent, 'before').to.equal('before');
        expect(div.querySelector('p:last-child > em')?.textContent, 'after').to.equal('after');
        expect(div.textContent, 'the deep text is all there').to.include('deep');
        expect(div.querySelectorAll('blockquote, ul, ol').length, 'no deep structure').to.be.below(LIMITS.depth + 1);
        let depth = 0;
        for (let n: Element | null = div.querySelector('.plain, p:nth-child(2)'); n && n !== div; n = n.parentElement) depth++;
        expect(depth).to.be.below(LIMITS.depth + 2);
      }
    });
  }

  it('nesting within the limit still renders as markdown', () => {
    const div = dom('> '.repeat(10) + 'ten');
    expect(div.querySelectorAll('blockquote')).to.have.length(10);
    expect(div.querySelector('.plain')).to.equal(null);
    const strong = dom('**a '.repeat(10) + 'x' + ' a**'.repeat(10));
    expect(strong.querySelectorAll('strong')).to.have.length(10);
  });

  it('a block over the size limit is plain text; fenced code of that size is still code', () => {
    const long = 'word '.repeat(LIMITS.blockChars / 4);
    const div = dom(`# Title\n\n**${long}**`);
    expect(div.querySelector('h1')?.textContent).to.equal('Title');
    const pieces = Array.from(div.querySelectorAll('p.plain'), (p) => p.textContent!);
    expect(pieces.join('')).to.equal(`**${long}**`);
    expect(Math.max(...pieces.map((p) => p.length))).to.be.at.most(LIMITS.plainChars);
    const code = dom('```\n' + 'x = 1\n'.repeat(LIMITS.blockChars / 5) + '```');
    expect(code.querySelector('pre > code')?.textContent?.length).to.be.greaterThan(LIMITS.blockChars);
  });

  it('a long plain block streams piece by piece: earlier pieces keep their DOM nodes', async () => {
    const { mountMarkdown } = await import('../support/markdown.js');
    const text = '**a '.repeat(6000); // 24 KB: nested too deep, and over the block size
    const box = document.createElement('div');
    mountMarkdown(text.slice(0, 17_000), { streaming: true }, box);
    const first = box.querySelector('p.plain');
    for (let cut = 17_000; cut <= text.length; cut += 700) mountMarkdown(text.slice(0, cut), { streaming: true }, box);
    const settled = mountMarkdown(text, { streaming: false }, box);
    expect(settled.querySelector('p.plain'), 'the first piece is the same node').to.equal(first);
    expect(settled.textContent).to.equal(text);
    expect(settled.innerHTML).to.equal(dom(text).innerHTML);
  });

  it('a long list is lexed in chunks and stays a list, numbers kept', () => {
    const items = Array.from({ length: 3000 }, (_, i) => `${i + 1}. item ${i + 1}`).join('\n');
    const div = dom(items);
    expect(div.querySelectorAll('li')).to.have.length(3000);
    expect(div.querySelector('.plain')).to.equal(null);
    const lists = Array.from(div.querySelectorAll('ol'));
    expect(lists.length).to.be.greaterThan(1);
    expect(lists[1]!.getAttribute('start')).to.equal(String(lists[0]!.children.length + 1));
  });

  it('marked never lexes a delimiter-dense run longer than a piece at once', () => {
    const seen: number[] = [];
    const original = Lexer.prototype.inlineTokens;
    Lexer.prototype.inlineTokens = function (this: Lexer, src: string, tokens?: Token[]) {
      seen.push(src.length);
      return original.call(this, src, tokens);
    } as typeof original;
    try {
      dom(`Intro **bold**.\n\n${'a_b_'.repeat(3000)}\n\n${'*a'.repeat(4000)}`);
    } finally {
      Lexer.prototype.inlineTokens = original;
    }
    // Lexed in pieces (how many depends on the time budget: a loaded machine shows the rest
    // plain sooner; in CI 3, where a quiet one lexes dozens).
    expect(seen.length).to.be.greaterThan(1);
    // A piece ends at a space or, failing that, at the limit (plus one for a surrogate pair).
    expect(Math.max(...seen)).to.be.at.most(LIMITS.inlineChars + 1);
  });

  it('delimiter-dense runs are lexed in pieces: the text is all there, in order', () => {
    for (const run of ['a_b_'.repeat(1500), '</' + '<!--'.repeat(1500), '*a'.repeat(3000), '~a'.repeat(3000)]) {
      const div = dom(run);
      expect(div.textContent!.replace(/[*_~]/g, '')).to.equal(run.replace(/[*_~]/g, ''));
    }
  });

  it('a long ordinary paragraph keeps emphasis that spans the whole of it', () => {
    // Few delimiters: lexed whole, however long.
    const text = `**${'plain words '.repeat(400).trim()}** and *${'more '.repeat(300).trim()}*`;
    const div = dom(text);
    expect(div.querySelector('strong')?.textContent?.length).to.be.greaterThan(4000);
    expect(div.querySelector('em')).not.to.equal(null);
  });

  it('a dense run is cut where its emphasis is closed', () => {
    // 3 KB where every other word is bold or italic: cut into pieces, well within the budgets.
    const text = Array.from({ length: 150 }, (_, i) => `**b${i}** and _e${i}_ then`).join(' ');
    // The cuts are deterministic; the clock (a last resort) must not decide on a loaded CI box.
    const limits = LIMITS as { blockMs: number };
    const blockMs = limits.blockMs;
    limits.blockMs = 60_000;
    let div: HTMLDivElement;
    try {
      div = dom(text);
    } finally {
      limits.blockMs = blockMs;
    }
    expect(div.querySelectorAll('strong')).to.have.length(150);
    expect(div.querySelectorAll('em')).to.have.length(150);
  });

  it('streaming nested and dense families ends in the one-shot render', () => {
    const container = document.createElement('div');
    for (const text of [DEEP.blockquotes!(300), DEEP.strong!(200), 'a_b_'.repeat(300), `intro\n\n${'- '.repeat(100)}x\n\nend`]) {
      const cuts = Array.from({ length: 40 }, (_, i) => Math.round(((i + 1) * text.length) / 41));
      const streamed = streamThrough(text, cuts, {}, container);
      expect(streamed.innerHTML).to.equal(dom(text).innerHTML);
    }
  });

  it('plain-text summaries are bounded, however long the reply', () => {
    const huge = 'A sentence that goes on. '.repeat(40_000);
    const summary = plainSummary(huge, 300);
    expect(summary.length).to.be.at.most(301);
    expect(summary.endsWith('…')).to.equal(true);
    expect(plainSummary('**Short** reply.')).to.equal('Short reply.');
  });
});

describe('link text', () => {
  before(() => loadHtmlSupport());

  it('text that names another host shows the real one', () => {
    for (const allowHtml of [false, true]) {
      const div = dom('[https://bank.example/login](https://evil.example/x) and [bank.example](https://evil.example)', { allowHtml });
      const links = Array.from(div.querySelectorAll('a'));
      expect(
        links.map((a) => a.textContent),
        `allowHtml=${allowHtml}`,
      ).to.deep.equal(['https://bank.example/login (evil.example)', 'bank.example (evil.example)']);
    }
  });

  it('allow-html links are checked too', () => {
    const div = dom('<a href="https://evil.example">https://bank.example</a>', { allowHtml: true });
    expect(div.querySelector('a')?.textContent).to.equal('https://bank.example (evil.example)');
  });

  it('a look-alike host is shown as the browser will contact it (punycode)', () => {
    const div = dom('[https://bаnk.example](https://bаnk.example)'); // Cyrillic а in both
    expect(div.querySelector('.link-host')).to.equal(null);
    const fake = dom('[https://bank.example](https://bаnk.example)');
    expect(fake.querySelector('.link-host')?.textContent).to.equal(' (xn--bnk-6cd.example)');
  });

  it('a host named inside the link text, with its scheme or www., is checked too', () => {
    for (const text of [
      'pay https://bank.example now',
      'log in at www.bank.example today',
      'see https://shop.example and https://bank.example',
    ]) {
      const div = dom(`[${text}](https://evil.example/)`);
      expect(div.querySelector('.link-host')?.textContent, text).to.equal(' (evil.example)');
    }
    // Prose that names no address, or names this one, gets no note; nor does a file name.
    for (const text of ['read the guide', 'the guide at https://evil.example/docs', 'open notes.txt', 'Node.js docs']) {
      expect(dom(`[${text}](https://evil.example/)`).querySelector('.link-host'), text).to.equal(null);
    }
    // An autolink's text is its own address, whatever the URL parser makes of it (CommonMark 346).
    expect(dom('<https://foo.bar.`baz>`').querySelector('.link-host')).to.equal(null);
  });

  it('matching hosts, www., ordinary words and mail links get no note', () => {
    const div = dom(
      '[https://shop.example/a](https://shop.example/b) [www.shop.example](https://shop.example) [the shop](https://evil.example) [mail](mailto:a@b.example) <https://c.example>',
    );
    expect(div.querySelector('.link-host')).to.equal(null);
  });

  it('invisible characters, other dots and punctuation around it cannot hide that the text names another host', () => {
    const spoofs = [
      'bank\u{E0041}.example', // a tag character
      'bank\ufe0f.example', // a variation selector
      'bank\u034f.example', // a combining grapheme joiner
      'bank.example.',
      'bank.example,',
      '(bank.example)',
      'bank\u3002example', // ideographic full stop
      'bank\uff0eexample', // fullwidth full stop
      'ｂａｎｋ.example', // fullwidth letters
    ];
    for (const text of spoofs) {
      const div = dom(`[${text}](https://evil.example/)`);
      expect(div.querySelector('.link-host')?.textContent, JSON.stringify(text)).to.equal(' (evil.example)');
    }
  });

  it('a deep structure after a fence this scan reads differently from marked is still limited', () => {
    for (const allowHtml of [false, true]) {
      const div = dom(`- a\n  \`\`\`\nb\n\n${'> '.repeat(200)}x`, { allowHtml });
      expect(div.querySelectorAll('blockquote').length, `allowHtml=${allowHtml}`).to.be.at.most(LIMITS.depth);
      const html = dom(`<div>\n\`\`\`\n\n${'> '.repeat(200)}x`, { allowHtml });
      expect(html.querySelectorAll('blockquote').length).to.be.at.most(LIMITS.depth);
    }
  });

  it('a lexer failure costs its own chunk: the chunks after it still render as markdown', () => {
    const original = Lexer.prototype.blockTokens;
    Lexer.prototype.blockTokens = function (this: Lexer, src: string, ...rest: unknown[]) {
      if (src.includes('BOOM')) {
        this.state.top = false;
        this.state.inLink = true;
        throw new RangeError('Maximum call stack size exceeded');
      }
      return (original as (...a: unknown[]) => Token[]).call(this, src, ...rest);
    } as typeof original;
    try {
      const paragraph = `A paragraph with **bold** and [a link](https://x.example). ${'words '.repeat(60)}\n\n`;
      const div = dom(`BOOM\n\n${paragraph.repeat(60)}`); // 25 KB: two chunks, the first one fails
      expect(div.querySelector('p.plain')?.textContent).to.contain('BOOM');
      // The second chunk is lexed by a fresh lexer: paragraphs, bold and links as usual.
      expect(div.querySelectorAll('p > strong').length).to.be.greaterThan(15);
      expect(div.querySelectorAll('p > a[href]').length).to.equal(div.querySelectorAll('p > strong').length);
      expect(div.lastElementChild?.matches('p:not(.plain)')).to.equal(true);
    } finally {
      Lexer.prototype.blockTokens = original;
    }
  });

  it('bidi overrides and invisible characters are removed from link text and autolinks', () => {
    const div = dom(
      '[\u202eelpmaxe.knab\u202c](https://bank.example) [pay\u200bpal](https://x.example) <https://a\u200b.example> https://b.example/\u2066x\u2069 [👨‍👩‍👧](https://x.example)',
    );
    const texts = Array.from(div.querySelectorAll('a'), (a) => a.textContent!);
    for (const text of texts) expect(/[\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text), JSON.stringify(text)).to.equal(false);
    expect(texts[0], 'what is left reads as another host: the real one is named').to.equal('elpmaxe.knab (bank.example)');
    expect(texts[1]).to.equal('paypal');
    expect(texts.at(-1), 'emoji joiners are kept').to.equal('👨‍👩‍👧');
  });
});

describe('streaming an expensive block', () => {
  it('draws the latest text soon after a burst, and the final text at once', async () => {
    const { mountMarkdown } = await import('../support/markdown.js');
    const { waitUntil } = await import('@open-wc/testing');
    const text = 'a_b_c*d '.repeat(1500); // 12 KB, one dense paragraph
    const box = document.body.appendChild(document.createElement('div'));
    after(() => box.remove());
    let last = '';
    for (let cut = 500; cut < text.length; cut += 500) {
      last = text.slice(0, cut);
      mountMarkdown(last, { streaming: true }, box);
    }
    const squash = (s: string) => s.replace(/[*_\s]/g, '');
    await waitUntil(() => squash(box.textContent!) === squash(last), 'the last streamed text was drawn', { timeout: 4000 });
    // Dense runs over the time budget may end as plain text: compare what is read.
    const settled = mountMarkdown(text, { streaming: false }, box);
    expect(squash(settled.textContent!), 'the final text, drawn at once').to.equal(squash(text));
  });
});
