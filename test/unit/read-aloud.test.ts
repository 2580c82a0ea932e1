import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pieces } from '../../src/read-aloud/pieces.js';

/** A reply read aloud is a sequence of short utterances (src/read-aloud/pieces.ts): each short, nothing lost. */
describe('the utterances of a reply read aloud', () => {
  it('cuts after the last sentence that ends in time, else at a space', () => {
    const sentence = 'The dome tent sleeps two and packs small. ';
    const read = pieces(sentence.repeat(10));
    expect(read.length).toBeGreaterThan(1);
    for (const piece of read.slice(0, -1)) expect(piece.endsWith('.')).toBe(true);
    expect(pieces(`${'word '.repeat(60)}`)).toEqual([`${'word '.repeat(39)}word`, `${'word '.repeat(19)}word`]);
  });

  it('a short text is one utterance, white space collapsed; nothing is none', () => {
    expect(pieces('  Hello\n\nthere  ')).toEqual(['Hello there']);
    expect(pieces(' \n ')).toEqual([]);
  });

  it('whatever the text: pieces of at most 200 characters, none empty, the text in order', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(' ', '. ', '? ', '\n', '。', 'x'.repeat(250)), fc.string({ maxLength: 30 })), { maxLength: 60 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (source) => {
        const read = pieces(source);
        for (const piece of read) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(200);
          expect(piece).toBe(piece.trim());
        }
        expect(read.join('').replace(/\s/g, '')).toBe(source.replace(/\s/g, ''));
      }),
    );
  });
});
