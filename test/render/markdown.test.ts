import { expect } from '@open-wc/testing';
import { html, render } from 'lit';
import {
  loadHtmlSupport,
  loadLexer,
  loadTailSupport,
  markdown,
  renderMarkdown,
  TRUSTED_TYPES_POLICY_NAME,
} from '../../src/markdown/markdown.js';
import { renderPlainText } from '../../src/markdown/plain.js';
import { safeUrl } from '../../src/security/url.js';

// The lexer and the guard for half-typed syntax (streaming: true) are chunks; the panel
// fetches them as a thread loads or a turn starts.
await Promise.all([loadLexer(), loadTailSupport()]);

function dom(text: string, options: Parameters<typeof renderMarkdown>[1] = {}): HTMLDivElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(text, options) as unknown as string;
  return div;
}

const DANGEROUS_TAGS =
  'script, iframe, object, embed, form, input, textarea, select, option, style, link, meta, base, svg, math, frame, frameset, template, video, audio';

/** Asserts nothing executable or form-like survived. Copy buttons are the widget's own. */
function expectInert(root: Element, label: string): void {
  expect(root.querySelector(DANGEROUS_TAGS), `${label}: dangerous element`).to.equal(null);
  for (const button of Array.from(root.querySelectorAll('button'))) {
    expect(button.hasAttribute('data-copy'), `${label}: foreign button`).to.equal(true);
  }
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      expect(attr.name.startsWith('on'), `${label}: ${attr.name} on <${el.localName}>`).to.equal(false);
      expect(['style', 'srcdoc', 'formaction', 'xlink:href', 'action'], `${label}: ${attr.name}`).not.to.include(attr.name);
      if (attr.name === 'href' || attr.name === 'src') {
        expect(safeUrl(attr.value), `${label}: ${attr.name}=${attr.value}`).to.equal(attr.value);
        expect(/^(https?|mailto|tel):/i.test(attr.value), `${label}: ${attr.value}`).to.equal(true);
      }
    }
  }
}

describe('renderMarkdown', () => {
  // The opt-in HTML pipeline loads DOMPurify on demand, as the element does before rendering.
  before(() => loadHtmlSupport());

  it('renders common syntax', () => {
    const div = dom(
      '# Title\n\nSome **bold**, *em*, ~~gone~~ and `code`.\n\n> quoted\n\n1. one\n2. two\n\n- a\n  - nested\n\n---\n\n[site](https://example.com "Example")',
    );
    expect(div.querySelector('h1')!.textContent).to.equal('Title');
    expect(div.querySelector('strong')!.textContent).to.equal('bold');
    expect(div.querySelector('em')!.textContent).to.equal('em');
    expect(div.querySelector('del')!.textContent).to.equal('gone');
    expect(div.querySelector('p > code')!.textContent).to.equal('code');
    expect(div.querySelector('blockquote p')!.textContent).to.equal('quoted');
    expect(div.querySelectorAll('ol > li')).to.have.length(2);
    expect(div.querySelector('ul ul li')!.textContent).to.equal('nested');
    expect(div.querySelector('hr')).not.to.equal(null);
    const a = div.querySelector('a')!;
    expect(a.getAttribute('href')).to.equal('https://example.com/');
    expect(a.getAttribute('title')).to.equal('Example');
  });

  it('gives links target=_blank and rel=noopener noreferrer, autolinks included', () => {
    const div = dom('[a](https://a.example) and https://b.example and <https://c.example> and [m](mailto:x@y.z)');
    const links = Array.from(div.querySelectorAll('a'));
    expect(links).to.have.length(4);
    for (const a of links) {
      expect(a.getAttribute('target')).to.equal('_blank');
      expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
    }
  });

  it('renders images lazily with their alt text', () => {
    const img = dom('![A red shoe](https://img.example/shoe.png)').querySelector('img')!;
    expect(img.getAttribute('src')).to.equal('https://img.example/shoe.png');
    expect(img.getAttribute('alt')).to.equal('A red shoe');
    expect(img.getAttribute('loading')).to.equal('lazy');
  });

  it('wraps code blocks with a copy button and keeps the language class', () => {
    const div = dom('```ts\nconst a = 1 < 2;\n```', { labels: { copyCode: 'Kopieren', table: 'Tabelle' } });
    const block = div.querySelector('div.code-block')!;
    const button = block.querySelector(':scope > button.copy[data-copy]') as HTMLButtonElement;
    expect(button.type).to.equal('button');
    expect(button.textContent).to.equal('Kopieren');
    const code = block.querySelector(':scope > pre > code')!;
    expect(code.className).to.equal('language-ts');
    expect(code.textContent).to.equal('const a = 1 < 2;\n');
  });

  it('wraps tables in a focusable, labelled scroll region', () => {
    const div = dom('| a | b |\n|---|--:|\n| 1 | 2 |', { labels: { copyCode: 'Copy', table: 'Data table' } });
    const wrapper = div.querySelector('div.table-scroll')!;
    expect(wrapper.getAttribute('tabindex')).to.equal('0');
    expect(wrapper.getAttribute('role')).to.equal('region');
    expect(wrapper.getAttribute('aria-label')).to.equal('Data table');
    expect(wrapper.querySelectorAll(':scope > table td')).to.have.length(2);
  });

  it('renders task lists without form controls', () => {
    const div = dom('- [x] done\n- [ ] open');
    expect(div.querySelector('input')).to.equal(null);
    expect(div.textContent).to.contain('☑').and.contain('☐');
  });

  describe('raw HTML (default)', () => {
    it('shows tags as literal text', () => {
      const div = dom('Look: <img src=x onerror=alert(1)> done');
      expect(div.querySelector('img')).to.equal(null);
      expect(div.textContent!.trim()).to.equal('Look: <img src=x onerror=alert(1)> done');
    });

    it('shows block HTML literally and keeps rendering the markdown after it', () => {
      for (const opener of ['<textarea>', '<script>', '<style>', '<!--', '<pre>', '<div>', '<![CDATA[', '<?php']) {
        const div = dom(`${opener}\n\n**after** the tag`);
        expect(div.textContent, opener).to.contain(opener);
        expect(div.querySelector('strong')?.textContent, opener).to.equal('after');
        expectInert(div, opener);
      }
    });

    it('cannot swallow following text inline either', () => {
      const div = dom('a <!-- b\n\nc <title> d\n\ne <plaintext> f');
      expect(div.textContent).to.contain('c <title> d').and.contain('e <plaintext> f');
      expect(div.querySelectorAll('p')).to.have.length(3);
    });
  });

  describe('allowHtml', () => {
    it('keeps formatting tags', () => {
      const div = dom('A <b>bold</b> <kbd>Ctrl</kbd> <sup>2</sup>\n\n<details><summary>More</summary>\n\nhidden\n\n</details>', {
        allowHtml: true,
      });
      expect(div.querySelector('b')!.textContent).to.equal('bold');
      expect(div.querySelector('kbd')!.textContent).to.equal('Ctrl');
      expect(div.querySelector('sup')).not.to.equal(null);
      expect(div.querySelector('summary')!.textContent).to.equal('More');
    });

    it('strips forms, frames, embeds, styles and handlers', () => {
      const div = dom(
        '<form action="https://evil.example"><input name=q><button>Go</button><textarea>t</textarea><select><option>o</option></select></form>\n\n' +
          '<iframe src="https://evil.example"></iframe><object data="x"></object><embed src="x">\n\n' +
          '<b onclick="alert(1)" style="color:red" id="clobber" class="copy">styled</b><a href="javascript:alert(1)">js</a>\n\n' +
          '<svg><script>alert(1)</script></svg><math><mi>x</mi></math><link rel=stylesheet href=x><meta http-equiv=refresh content=0><base href="https://evil.example/">',
        { allowHtml: true },
      );
      expectInert(div, 'allowHtml');
      const b = div.querySelector('b')!;
      expect(b.attributes).to.have.length(0);
      expect(div.querySelector('a')?.hasAttribute('href') ?? false).to.equal(false);
    });
  });

  describe('XSS corpus', () => {
    const corpus = [
      '[x](javascript:alert(1))',
      '[x](JAVASCRIPT:alert(1))',
      '[x]( javascript:alert(1))',
      '[x](<javascript:alert(1)>)',
      '[x](java\tscript:alert(1))',
      '[x](&#106;avascript:alert(1))',
      '[x](&#x6A;avascript&#x3A;alert(1))',
      '[x](javascript&colon;alert(1))',
      '[x](vbscript:msgbox(1))',
      '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '[x](file:///etc/passwd)',
      '[x](blob:https://example.com/uuid)',
      '![x](javascript:alert(1))',
      '![x](data:image/svg+xml,<svg/onload=alert(1)>)',
      '![x](vbscript:x)',
      '[x][ref]\n\n[ref]: javascript:alert(1)',
      '<javascript:alert(1)>',
      '<a href="javascript:alert(1)">a</a>',
      '<img src=x onerror=alert(1)>',
      '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<form action="javascript:alert(1)"><button>go</button></form>',
      '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
      '<a href="&#14;javascript:alert(1)">x</a>',
      '<details open ontoggle=alert(1)>',
      '<input autofocus onfocus=alert(1)>',
      '<div style="background:url(javascript:alert(1))">x</div>',
      '<base href="javascript:/">',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<template><script>alert(1)</script></template>',
      '[<img src=x onerror=alert(1)>](https://ok.example)',
      '**<img src=x onerror=alert(1)>**',
      '`<script>alert(1)</script>`',
      '```html\n<script>alert(1)</script>\n```',
      '| <img src=x onerror=alert(1)> |\n|---|\n| [x](javascript:alert(1)) |',
    ];
    for (const allowHtml of [false, true]) {
      for (const payload of corpus) {
        it(`${allowHtml ? 'allowHtml' : 'default'}: ${JSON.stringify(payload).slice(0, 70)}`, () => {
          expectInert(dom(payload, { allowHtml }), payload);
          expectInert(dom(payload, { allowHtml, streaming: true }), payload);
        });
      }
    }
  });

  describe('streaming tail', () => {
    const cases: Array<[string, RegExp | null, string]> = [
      ['Some **bo', /bo/, 'strong'],
      ['Some *it', /it/, 'em'],
      ['Some _it', /it/, 'em'],
      ['Some ~~gon', /gon/, 'del'],
      ['Run `npm i', /npm i/, 'code'],
      ['Some **', null, ''],
      ['Some `', null, ''],
      ['See [the docs](https://exa', /See the docs/, ''],
      ['See [the docs', /See the docs/, ''],
      ['See [the docs]', /See the docs/, ''],
      ['Look ![alt](https://img', null, ''],
      ['| a | b |', null, ''],
      ['| a | b |\n|--', null, ''],
    ];
    for (const [text, visible, tag] of cases) {
      it(`hides raw syntax in ${JSON.stringify(text)}`, () => {
        const div = dom(text, { streaming: true });
        const shown = div.textContent ?? '';
        expect(shown).not.to.match(/\*\*|`|\]\(|~~|\||\[|\]/);
        if (visible) expect(shown).to.match(visible);
        if (tag) expect(div.querySelector(tag), tag).not.to.equal(null);
        expect(div.querySelector('a, img')).to.equal(null);
      });
    }

    it('does not take arithmetic or snake_case for emphasis', () => {
      expect(dom('2 * 3 = 6', { streaming: true }).textContent!.trim()).to.equal('2 * 3 = 6');
      expect(dom('use snake_case_na', { streaming: true }).textContent!.trim()).to.equal('use snake_case_na');
    });

    it('leaves brackets that are code or escaped alone', () => {
      expect(dom('Use `arr[0]` or `arr[1', { streaming: true }).textContent!.trim()).to.equal('Use arr[0] or arr[1');
      expect(dom('Use `arr[0]` then \\[not a link', { streaming: true }).textContent!.trim()).to.equal('Use arr[0] then [not a link');
    });

    it('keeps an open code fence as code without a half-typed closing fence', () => {
      const div = dom('```js\nlet a = 1;\n``', { streaming: true });
      expect(div.querySelector('code')!.textContent).to.equal('let a = 1;\n');
    });

    it('renders the complete text unchanged once streaming ends', () => {
      expect(dom('Some **bo').textContent!.trim()).to.equal('Some **bo');
    });
  });

  it('returns TrustedHTML from the agent-chat policy when Trusted Types exist', () => {
    expect(TRUSTED_TYPES_POLICY_NAME).to.equal('agent-chat');
    const out = renderMarkdown('*hi*');
    const tt = (window as unknown as { trustedTypes?: { isHTML(v: unknown): boolean } }).trustedTypes;
    if (tt) expect(tt.isHTML(out)).to.equal(true);
    else expect(out).to.be.a('string');
    expect(String(out)).to.equal('<p dir="auto"><em>hi</em></p>');
  });

  it('decodes character references in text, titles and URLs as an HTML parser would', () => {
    for (const allowHtml of [false, true]) {
      const div = dom(
        'Fish &amp; chips &hellip; &copy; &#169; &#x1F600; &bogus; &#0; `&amp;` [l&amp;](https://x.example/?a=1&amp;b=2 "T&amp;")',
        {
          allowHtml,
        },
      );
      const p = div.querySelector('p')!;
      expect(p.firstChild!.textContent, `allowHtml=${allowHtml}`).to.equal('Fish & chips … © © 😀 &bogus; \ufffd ');
      expect(p.querySelector('code')!.textContent).to.equal('&amp;');
      const a = p.querySelector('a')!;
      expect(a.textContent).to.equal('l&');
      expect(a.getAttribute('href')).to.equal('https://x.example/?a=1&b=2');
      expect(a.title).to.equal('T&');
    }
  });

  it('builds default markdown without any HTML parse (no sink, no sanitiser needed)', () => {
    const box = document.createElement('div');
    const view = (text: string) => html`<div ${markdown(text)}></div>`;
    render(view(''), box); // Lit prepares its own template (an HTML parse) on first use
    const descriptor = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML')!;
    const parse = DOMParser.prototype.parseFromString;
    let parses = 0;
    Object.defineProperty(Element.prototype, 'innerHTML', {
      ...descriptor,
      set(value: string) {
        parses++;
        descriptor.set!.call(this, value);
      },
    });
    DOMParser.prototype.parseFromString = function (...args) {
      parses++;
      return parse.apply(this, args);
    };
    try {
      render(
        view('# T\n\n**b** <i>x</i> &amp; &lt; [l](https://l.example)\n\n| a |\n|---|\n| 1 |\n\n```js\nx\n```\n\n- [x] t\n\n> q'),
        box,
      );
      expect(box.querySelector('strong')!.textContent).to.equal('b');
      expect(box.querySelector('i')).to.equal(null);
      expect(parses).to.equal(0);
    } finally {
      Object.defineProperty(Element.prototype, 'innerHTML', descriptor);
      DOMParser.prototype.parseFromString = parse;
    }
  });
});

describe('renderPlainText', () => {
  it('turns markdown into readable text without markup', () => {
    const text = renderPlainText(
      '# Order\n\nYour **shoes** ship *today* &amp; cost `$5`. [Track](https://t.example)\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```',
    );
    expect(text).to.equal('Order\n\nYour shoes ship today & cost $5. Track\n\none\ntwo\n\na, b\n1, 2\n\ncode');
  });

  it('keeps raw HTML as the literal text the user sees', () => {
    expect(renderPlainText('a <b>x</b> c')).to.equal('a <b>x</b> c');
  });
});
