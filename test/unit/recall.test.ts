import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Recalled, questions, step } from '../../src/recall/recall.js';
import { emptyReply, userMessage } from '../../src/state/messages.js';

/** Prompt recall (src/recall/recall.ts): ArrowUp and ArrowDown over the questions sent, never over a draft. */
describe('prompt recall', () => {
  const asked = ['first', 'second', 'third'];

  /** Presses the keys in turn from `field`, as the composer does: what the field shows after each. */
  function press(keys: string, field = '', list: readonly string[] = asked): string[] {
    let recalled: Recalled | null = null;
    const shown: string[] = [];
    for (const key of keys) {
      const moved = step(list, field, recalled, key === '↑');
      if (moved) ({ text: field, recalled } = moved);
      shown.push(field);
    }
    return shown;
  }

  it('ArrowUp from an empty field goes back from the newest question; ArrowDown forward, past the newest to empty', () => {
    expect(press('↑↑↑↑↓↓↓↓')).toEqual(['third', 'second', 'first', 'first', 'second', 'third', '', '']);
    expect(step(asked, '', null, false), 'ArrowDown in an empty field keeps its meaning').toBeNull();
    expect(step(asked, '', null, true)).toEqual({ text: 'third', recalled: { at: 2, text: 'third' } });
    expect(step(asked, 'first', { at: 0, text: 'first' }, true), 'nothing older').toBeNull();
    expect(step([], '', null, true), 'nothing asked yet').toBeNull();
  });

  it('keeps a draft: typed text, or a recalled question once changed, is never replaced', () => {
    expect(step(asked, 'my draft', null, true)).toBeNull();
    expect(step(asked, 'my draft', null, false)).toBeNull();
    expect(step(asked, 'third!', { at: 2, text: 'third' }, true)).toBeNull();
    expect(step(asked, 'third!', { at: 2, text: 'third' }, false)).toBeNull();
  });

  it("a recall from another conversation's questions starts again from the newest", () => {
    // The field shows 'second', recalled at 1, but the conversation now has other questions there.
    expect(step(['other', 'more'], 'second', { at: 1, text: 'second' }, true)).toBeNull();
    expect(step(['other', 'more'], '', { at: 1, text: 'second' }, true)).toEqual({ text: 'more', recalled: { at: 1, text: 'more' } });
  });

  it('the questions are the user messages with text, oldest first', () => {
    const messages = [userMessage('hello'), emptyReply('hi'), userMessage(''), userMessage('tents?')];
    expect(questions(messages)).toEqual(['hello', 'tents?']);
  });

  it('whatever the questions: n ArrowUps then n ArrowDowns come back to the empty field, and a draft is never touched', () => {
    const list = fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 8 });
    fc.assert(
      fc.property(list, fc.nat({ max: 10 }), fc.string({ minLength: 1 }), (questions, n, draft) => {
        const shown = press('↑'.repeat(n) + '↓'.repeat(n), '', questions);
        expect(shown.at(-1) ?? '').toBe('');
        for (const text of shown) expect(text === '' || questions.includes(text)).toBe(true);
        expect(press('↑↓↑', draft, questions)).toEqual([draft, draft, draft]);
      }),
    );
  });
});
