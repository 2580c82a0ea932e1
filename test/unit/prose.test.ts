import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexMarkdown } from '../../src/markdown/lex.js';
import { proseTokens } from '../../src/markdown/prose.js';

// src/markdown/prose.ts draws prose before (or without) the lexer's chunk: whatever it takes
// must come out as the very tokens the lexer makes, or a message would change when the
// lexer arrives. Random text from an alphabet heavy in what markdown reads as syntax.

const SYNTAX = [...'-=+#>*_`~[]<>&|@\\', 'ww', 'w.', '://', '1.', '1)', '  '];
const SAFE = [...'ab xy 12.)(:!/\'"\t\n\n\n', '\u00a0', '\u2028', 'é', 'http'];
// Mostly what the prose path takes, with now and then one thing it must not get wrong.
const text = fc
  .array(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...SAFE) }, { weight: 1, arbitrary: fc.constantFrom(...SYNTAX) }), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));
const asLexed = (src: string, allowHtml = false) => JSON.parse(JSON.stringify([...lexMarkdown(src, allowHtml)])) as unknown;

describe('prose without the lexer', () => {
  it('takes a welcome, a question and paragraphs', () => {
    for (const src of [
      "Hi Ada! I'm the shop assistant. Ask me about shoes: I can compare them, and check sizes.",
      'Question 1: the trail runner weighs?',
      '\n\nFirst line\nsecond line\n\n\nNext paragraph.\n',
      'Ends with a blank line\n\n',
    ]) {
      expect(proseTokens(src), src).not.toBeNull();
      expect(proseTokens(src), src).toEqual(asLexed(src));
    }
  });

  it('leaves anything that may be syntax to the lexer', () => {
    for (const src of [
      '**bold**',
      'a `b`',
      '- item',
      '1. one',
      '# title',
      'a\n---',
      // A one-column table: its delimiter row needs no pipe (fast-check found it).
      'a\n:-',
      '> quote',
      'see https://x.example',
      'www.example.com',
      'a@b.c',
      'a &amp; b',
      '| a |',
      'line  \nbreak',
      '    code',
      'a <b>',
    ]) {
      expect(proseTokens(src), src).toBeNull();
    }
    expect(proseTokens('a '.repeat(3_000))).toBeNull(); // long text: the lexer's size limits apply
    // Many `!` (image openers to lex.ts): its work budget may cut the text into plain runs.
    for (const src of ['!'.repeat(1_100), 'ab!'.repeat(1_365)]) {
      expect(proseTokens(src)).toBeNull();
      expect(JSON.stringify(asLexed(src))).toContain('"type":"plain"');
    }
    const bangs = 'Hi! '.repeat(64).trim();
    expect(proseTokens(bangs)).toEqual(asLexed(bangs));
  });

  it('makes the tokens the lexer makes, whenever it takes a text (property)', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (src, allowHtml) => {
        const tokens = proseTokens(src);
        if (tokens) expect(JSON.parse(JSON.stringify(tokens))).toEqual(asLexed(src, allowHtml));
      }),
      { numRuns: 3_000 },
    );
  });

  it('takes most plain sentences (property)', () => {
    const sentence = fc.array(fc.constantFrom(...'abc de fg, hi. Jk? Lm! 12 (n) "o" p\'q: r;\n'), { maxLength: 80 }).map((p) => p.join(''));
    fc.assert(
      fc.property(sentence, (src) => {
        // Only a line that starts with a space or a number, or ends with one, is left to the lexer here.
        if (!/^[ \d]| $/m.test(src)) expect(proseTokens(src)).not.toBeNull();
      }),
    );
  });
});
