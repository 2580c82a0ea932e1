import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tailState } from '../../src/markdown/blocks.js';
import { completeTail } from '../../src/markdown/tail.js';

/**
 * The guard for half-typed markdown (src/markdown/tail.ts): what a streaming reply's last
 * block shows is what it will become. The whole rendering is checked in browsers against
 * every CommonMark example (test/render/commonmark.test.ts); these are its decisions.
 */
describe('the state of a streamed text', () => {
  it('settled when the stream is over or the last block ended with a blank line', () => {
    expect(tailState('a **b', false)).toBe('settled');
    expect(tailState('para\n\n', true)).toBe('settled');
    expect(tailState('para\n \t\n', true)).toBe('settled');
  });

  it('line when its last line has its break, typing while it is typed', () => {
    expect(tailState('para\n', true)).toBe('line');
    expect(tailState('para', true)).toBe('typing');
  });

  it('reads only the end of the text, as the rule that scanned all of it decided', () => {
    // The rule as it was written (a regular expression over the whole text, every frame).
    const rule = (text: string) => (/\n[ \t]*\n$/.test(text) ? 'settled' : text.endsWith('\n') ? 'line' : 'typing');
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\t', '\n', '\r'), { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        expect(tailState(text, true)).toBe(rule(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('completing the tail being typed', () => {
  const typing = (raw: string, type = 'paragraph') => completeTail(raw, type, 'typing');

  it('closes open emphasis, strong and code spans', () => {
    expect(typing('a **bo')).toBe('a **bo**');
    expect(typing('a *it')).toBe('a *it*');
    expect(typing('run `npm i')).toBe('run `npm i`');
  });

  it('hides a dangling opener', () => {
    expect(typing('a **')).not.toContain('**');
  });

  it('shows a half-typed link as its text', () => {
    const done = typing('see [the docs](https://exa');
    expect(done).toContain('the docs');
    expect(done).not.toContain('](');
  });

  it('leaves a line with its break as typed (it is settled), except a table start', () => {
    expect(completeTail('a **bold\n', 'paragraph', 'line')).toBe('a **bold\n');
    expect(completeTail('| a | b |\n', 'paragraph', 'line')).not.toContain('|');
  });

  it('holds back a closing fence still being typed, and leaves real code alone', () => {
    expect(typing('```js\nlet a;\n``', 'code')).toBe('```js\nlet a;');
    expect(typing('```js\nlet a;\n```', 'code')).toBe('```js\nlet a;\n```');
    expect(typing('```js\nlet a = "**";', 'code')).toBe('```js\nlet a = "**";');
  });

  it('leaves raw HTML, rules and definitions as they are', () => {
    for (const type of ['html', 'hr', 'def', 'space']) expect(completeTail('<b>x', type, 'typing')).toBe('<b>x');
  });

  it('hides a line that is only a list marker or heading hashes (it is about to become one)', () => {
    expect(typing('text\n- ')).toBe('text');
    expect(typing('text\n##')).not.toContain('#');
  });
});
