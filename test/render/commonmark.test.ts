import { expect } from '@open-wc/testing';
import { Marked } from 'marked';
import { loadHtmlSupport, renderMarkdown, type MarkdownOptions } from '../../src/markdown/markdown.js';
import { safeUrl } from '../../src/security/url.js';
import { mountMarkdown, oneShot, streamThrough } from '../support/markdown.js';

// Streaming must not change the result: once a reply settles, the DOM the markdown()
// directive built token by token equals the DOM rendered from the complete text. Checked
// here on the 652 examples of the CommonMark spec (npm `commonmark-spec`). What is compared
// is streamed against one-shot, not against the spec's expected HTML: marked is GFM and
// deliberately differs from CommonMark in places, and that is not what this test is about.

interface SpecExample {
  markdown: string;
  section: string;
  number: number;
}

// The package's index.js reads spec.txt with `fs`, so it cannot run in a browser. The
// test runner's dev server serves node_modules, so the text is fetched and the examples
// extracted here with the package's own pattern. Like commonmark.js's spec runner, `→`
// stands for a tab (the spec prints tabs that way).
async function loadSpecExamples(): Promise<SpecExample[]> {
  const url = new URL('../../node_modules/commonmark-spec/spec.txt', import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const text = (await response.text()).replace(/\r\n?/g, '\n').replace(/^<!-- END TESTS -->[\s\S]*/m, '');
  const examples: SpecExample[] = [];
  let section = '';
  const pattern = /^`{32} example\n([\s\S]*?)^\.\n([\s\S]*?)^`{32}$|^#{1,6} *(.*)$/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[3] !== undefined) section = match[3];
    else examples.push({ markdown: match[1]!.replace(/→/g, '\t'), section, number: examples.length + 1 });
  }
  return examples;
}

/** Every prefix at `cuts` while streaming, then the whole text settled: the settled HTML. */
function streamed(text: string, cuts: number[], options: MarkdownOptions): string {
  return streamThrough(text, cuts, options, document.createElement('div')).innerHTML;
}

/** Deterministic PRNG (mulberry32): the same cuts on every run and in every browser. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Failure {
  example: SpecExample;
  cuts: string;
  streamed: string;
  expected: string;
}

function describeFailure(f: Failure, withDiff: boolean): string {
  const head = `example ${f.example.number} (${f.example.section}), cuts ${f.cuts}: ${JSON.stringify(f.example.markdown)}`;
  if (!withDiff) return head;
  let i = 0;
  while (i < f.streamed.length && f.streamed[i] === f.expected[i]) i++;
  const from = Math.max(0, i - 60);
  return (
    `${head}\n    first difference at ${i}` +
    `\n    streamed: …${JSON.stringify(f.streamed.slice(from, i + 80))}` +
    `\n    one-shot: …${JSON.stringify(f.expected.slice(from, i + 80))}`
  );
}

function report(failures: Failure[], total: number): string {
  const shown = 5;
  return (
    `${failures.length} of ${total} spec examples stream to a different DOM than the one-shot render:\n  ` +
    failures.map((f, i) => describeFailure(f, i < shown)).join('\n  ')
  );
}

/** The single cuts that alone reproduce a failure, to name in the report (at most a few). */
function singleCuts(text: string, options: MarkdownOptions, expected: string): string {
  const found: number[] = [];
  for (let cut = 0; cut <= text.length && found.length < 5; cut++) {
    if (streamed(text, [cut], options) !== expected) found.push(cut);
  }
  return found.length ? `every position (alone, e.g. at ${found.join(', ')})` : 'every position (no single cut alone)';
}

// The reference for the default pipeline: marked's own HTML renderer with what the widget
// decides differently made the same (raw HTML escaped, no html block tokenizer, task boxes
// as glyphs, links only to allow-listed URLs), parsed by the browser.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
const reference = new Marked({ gfm: true });
reference.use({
  tokenizer: { html: () => undefined },
  renderer: {
    html: (token) => escapeHtml(token.text),
    checkbox: ({ checked }) => `<span class="task-checkbox">${checked ? '☑' : '☐'}</span> `,
    link(token) {
      const inner = this.parser.parseInline(token.tokens);
      const probe = document.createElement('textarea');
      probe.innerHTML = token.href; // the URL as the HTML parser would have decoded it
      return safeUrl(token.autolink ? token.href : probe.value) === null ? inner : false;
    },
    image(token) {
      const probe = document.createElement('textarea');
      probe.innerHTML = token.href;
      return safeUrl(probe.value) === null ? escapeHtml(token.text) : false;
    },
  },
});
// marked writes a newline after each block; next to text (a heading then more text in one
// list item) it would become part of that text node. The widget writes no such newlines.
const referenceHtml = (text: string) =>
  (reference.parse(text) as string).replace(/(<\/(?:h[1-6]|p|pre|blockquote|ul|ol|li|table|thead|tbody|tr)>|<hr>)\n/g, '$1');

function fragmentOf(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/**
 * Elements and text in document order, without attributes and without the whitespace-only
 * text that marked's HTML carries between blocks. With `undecorate`, the widget's own
 * wrappers (copy button, language label, scrolling table region) are left out.
 */
function outline(root: Node, undecorate: boolean): string {
  let out = '';
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (child.textContent!.trim() || child.parentElement?.closest('pre, code')) out += JSON.stringify(child.textContent);
        continue;
      }
      if (!(child instanceof Element)) continue;
      if (undecorate && child.matches('button.copy, span.code-language')) continue;
      if (undecorate && child.matches('div.code-block, div.table-scroll')) {
        walk(child);
        continue;
      }
      out += `<${child.localName}>`;
      walk(child);
      out += `</${child.localName}>`;
    }
  };
  walk(root);
  return out.replace(/""/g, '');
}

const examples = await loadSpecExamples();

describe('markdown() directive on the CommonMark spec examples', () => {
  it('extracts the spec examples', () => {
    expect(examples.length).to.equal(652);
    expect(examples[0]!.markdown).to.equal('\tfoo\tbaz\t\tbim\n');
  });

  it('equals the one-shot render when every character of every example arrives on its own', function () {
    this.timeout(120_000);
    const options: MarkdownOptions = {};
    const failures: Failure[] = [];
    for (const example of examples) {
      const text = example.markdown;
      const expected = oneShot(text, options);
      const cuts = Array.from({ length: text.length + 1 }, (_, i) => i);
      const actual = streamed(text, cuts, options);
      if (actual !== expected) {
        failures.push({ example, cuts: singleCuts(text, options, expected), streamed: actual, expected });
      }
    }
    expect(failures.length, report(failures, examples.length)).to.equal(0);
  });

  // The half-typed-syntax guard (tail.ts) may only guess about what has not arrived yet:
  // once the last delta is in, what the reader sees must already be the settled reply, so
  // the final `message` frame changes nothing on screen.
  it('shows the settled DOM once the last delta has arrived', function () {
    this.timeout(120_000);
    const failures: Failure[] = [];
    for (const example of examples) {
      const text = example.markdown;
      const container = document.createElement('div');
      for (let cut = 0; cut <= text.length; cut++) mountMarkdown(text.slice(0, cut), { streaming: true }, container);
      const lastDelta = container.innerHTML;
      const settled = mountMarkdown(text, { streaming: false }, container).parentElement!.innerHTML;
      if (lastDelta !== settled) failures.push({ example, cuts: 'every position', streamed: lastDelta, expected: settled });
    }
    expect(failures.length, report(failures, examples.length)).to.equal(0);
  });

  it("builds the same document as marked's own HTML renderer (with raw HTML as text)", () => {
    const failures: string[] = [];
    for (const example of examples) {
      const ours = outline(fragmentOf(renderMarkdown(example.markdown) as unknown as string), true);
      const reference = outline(fragmentOf(referenceHtml(example.markdown)), false);
      if (ours !== reference)
        failures.push(
          `example ${example.number} (${example.section}): ${JSON.stringify(example.markdown)}\n  ours      ${ours}\n  reference ${reference}`,
        );
    }
    expect(failures.length, `${failures.length} of ${examples.length} differ:\n${failures.slice(0, 5).join('\n')}`).to.equal(0);
  });

  describe('with allowHtml', () => {
    before(async () => {
      // allowHtml renders only once its sanitiser (a lazy chunk) is loaded.
      expect(await loadHtmlSupport(), 'loadHtmlSupport()').to.equal(true);
    });

    it('equals the one-shot render for every example streamed at random points', function () {
      this.timeout(120_000);
      const options: MarkdownOptions = { allowHtml: true };
      const random = prng(0xc0ffee);
      const failures: Failure[] = [];
      for (const example of examples) {
        const text = example.markdown;
        const expected = oneShot(text, options);
        for (let run = 0; run < 8; run++) {
          const count = 1 + Math.floor(random() * 8);
          const cuts = Array.from({ length: count }, () => Math.floor(random() * (text.length + 1)));
          const actual = streamed(text, cuts, options);
          if (actual !== expected) {
            const sorted = [...new Set(cuts)].sort((a, b) => a - b);
            failures.push({ example, cuts: `[${sorted.join(', ')}]`, streamed: actual, expected });
            break;
          }
        }
      }
      expect(failures.length, report(failures, examples.length)).to.equal(0);
    });

    // allowHtml writes the same token walk as an HTML string for DOMPurify. Where a reply
    // has no raw HTML that string must give exactly the default pipeline's document,
    // attributes included: escaping, void elements and entities are the string's own work.
    it('renders examples without raw HTML exactly as the default pipeline does', () => {
      const failures: string[] = [];
      const plain = examples.filter((example) => !example.markdown.includes('<'));
      // DOMPurify trims attribute values (a link title that starts with a line break).
      const trimmed = (html: string) => {
        const root = fragmentOf(html);
        for (const node of Array.from(root.querySelectorAll('*'))) {
          for (const attr of Array.from(node.attributes)) attr.value = attr.value.trim();
        }
        return Array.from(root.childNodes, (node) => (node instanceof Element ? node.outerHTML : node.textContent)).join('');
      };
      for (const example of plain) {
        const ours = String(renderMarkdown(example.markdown, { allowHtml: true }));
        const reference = trimmed(String(renderMarkdown(example.markdown)));
        if (ours !== reference)
          failures.push(`example ${example.number}: ${JSON.stringify(example.markdown)}\n  allowHtml ${ours}\n  default   ${reference}`);
      }
      expect(plain.length).to.be.greaterThan(500);
      expect(failures.length, `${failures.length} of ${plain.length} differ:\n${failures.slice(0, 5).join('\n')}`).to.equal(0);
    });
  });
});
