import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import * as marked from 'marked';
import { describe, expect, it } from 'vitest';
import * as vendored from '../../../src/markdown/vendor/marked.js';
import { vendoredMarked } from '../../../scripts/vendor-marked.js';

// src/markdown/vendor/marked.js is marked's bundle trimmed to what the widget runs
// (scripts/vendor-marked.ts): constants for the options it never sets, and no rules or code
// only other modes, the Parser or the Renderer use. This is where it is held to lexing exactly
// as the pinned marked does, the way src/markdown/lex.ts drives it, and to being what the
// script writes from that version.

type Marked = Pick<typeof marked, 'Lexer' | 'Tokenizer' | 'getDefaults'>;
const module = vendored as unknown as Marked;

/** Block and inline tokens as src/markdown/lex.ts gets them (one chunk, no limits reached). */
function lex(m: Marked, src: string, allowHtml: boolean): unknown {
  class TextOnlyTokenizer extends m.Tokenizer {
    override html(): undefined {
      return undefined;
    }
  }
  const lexer = new m.Lexer(
    Object.assign(m.getDefaults(), { gfm: true, tokenizer: allowHtml ? new m.Tokenizer() : new TextOnlyTokenizer() }),
  );
  const tokens = lexer.blockTokens(src, []);
  for (const run of lexer.inlineQueue) {
    lexer.state.inRawBlock = false;
    lexer.inlineTokens(run.src, run.tokens);
  }
  return { tokens, links: { ...lexer.tokens.links } };
}

function specExamples(): string[] {
  const text = readFileSync(new URL('../../../node_modules/commonmark-spec/spec.txt', import.meta.url), 'utf8').replace(
    /^<!-- END TESTS -->[\s\S]*/m,
    '',
  );
  return [...text.matchAll(/^`{32} example\n([\s\S]*?)^\.\n/gm)].map((m) => m[1]!.replace(/→/g, '\t'));
}

// GFM beyond CommonMark, and what only some options reach.
const GFM = [
  '| a | b |\n| :- | -: |\n| 1 | 2 |\n| x\\|y | `c|d` |',
  '~~gone~~ ~one~ ~~~not~~~',
  '- [ ] todo\n- [x] done\n\n  more\n- [X] loose',
  'www.example.com/path?q=1. https://a.b/c_(d) foo@bar.baz mailto:x@y.z xmpp:a@b.c/r',
  'line  \nbreak\\\nand\nsoft',
  '<div>\n*block html*\n</div>\n\n<span>inline</span> <!-- c --> <a href="x">a</a>',
  '***strong em*** __a_b__ _a*b*_ *a **b** c* **a*b** a*"b"*',
  '[ref]: /url "title"\n\n[ref] [text][ref] ![img][ref] [x](</a b> "t")',
  'Setext\n===\n\n    indented\n\n```js\nfenced\n```\n\n> quote\n> - list\n>   1. nested',
];

describe('the vendored marked', () => {
  it('is what scripts/vendor-marked.ts writes from the installed marked (npm run vendor:marked)', () => {
    const dir = fileURLToPath(new URL('../../../src/markdown/vendor/', import.meta.url));
    for (const [name, text] of Object.entries(vendoredMarked())) expect(readFileSync(join(dir, name), 'utf8') === text, name).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(Object.keys(vendoredMarked()).sort());
  });

  it('comes from the exact marked version package.json pins', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const installed = JSON.parse(readFileSync(new URL('../../../node_modules/marked/package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(pkg.devDependencies.marked).toBe(installed.version);
  });

  it("leaves out only Lexer methods src/ does not call: it lexes through src/markdown/lex.ts's blockTokens and inlineTokens", () => {
    const src = fileURLToPath(new URL('../../../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const runtime = files.filter((f) => /^import (?!type)[^;]*from '\.\/vendor\/marked\.js'/m.test(readFileSync(join(src, f), 'utf8')));
    expect(files.filter((f) => /from 'marked'/.test(readFileSync(join(src, f), 'utf8')))).toEqual([]);
    expect(runtime).toEqual([join('markdown', 'lex.ts')]);
    const lex = readFileSync(join(src, 'markdown', 'lex.ts'), 'utf8');
    expect(lex).not.toMatch(/\bLexer\.|\.lex\(|\.lexInline\(/);
    expect(module.Lexer.prototype).not.toHaveProperty('lex');
    expect(module.Lexer).not.toHaveProperty('lexInline');
  });

  it('exports only what src/ uses', () => {
    expect(Object.keys(module).sort()).toEqual(['Lexer', 'Tokenizer', 'getDefaults']);
  });

  it('lexes the CommonMark examples and GFM as marked does, with and without allow-html', () => {
    for (const src of [...specExamples(), ...GFM]) {
      for (const allowHtml of [false, true]) expect(lex(module, src, allowHtml), src).toEqual(lex(marked, src, allowHtml));
    }
  });

  it('lexes markup-dense text as marked does', () => {
    const pieces = [
      '*',
      '_',
      '~',
      '`',
      '[',
      ']',
      '(',
      ')',
      '!',
      '<',
      '>',
      '#',
      '-',
      '|',
      ':',
      '\\',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '\t',
      '1.',
      'a',
      'b',
      'www.',
      '@',
      'http://',
      '&amp;',
      '&#',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), fc.boolean(), (parts, allowHtml) => {
        const src = parts.join('');
        expect(lex(module, src, allowHtml)).toEqual(lex(marked, src, allowHtml));
      }),
      { numRuns: 500 },
    );
  });
});
