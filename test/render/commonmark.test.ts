import { expect } from '@open-wc/testing';
import type { MarkdownOptions } from '../../src/render/markdown.js';
import { oneShot, streamThrough } from '../support/markdown.js';

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

  describe('with allowHtml', () => {
    before(async () => {
      // Raw HTML support may need loading before allowHtml renders; older builds have no loader.
      const mod = await import('../../src/render/markdown.js');
      const loaded = await (mod as { loadHtmlSupport?: () => Promise<boolean> }).loadHtmlSupport?.();
      expect(loaded, 'loadHtmlSupport()').not.to.equal(false);
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
  });
});
