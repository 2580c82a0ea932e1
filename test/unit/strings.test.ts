import { describe, expect, it } from 'vitest';
import { addEnglish, englishVersion, resolveStrings } from '../../src/i18n/index.js';
import { en } from '../../src/i18n/strings.js';
import { strings as feedback } from '../../src/feedback/strings.js';

/** The UI's texts: the language's table, English as far as its features have arrived, the host's overrides on top. */
describe('UI texts', () => {
  it("a feature's English arrives with its chunk, and a table resolved before misses it", () => {
    const before = resolveStrings('en');
    expect(before.feedbackUp).toBeUndefined();
    const version = englishVersion();
    addEnglish(feedback);
    expect(englishVersion()).toBe(version + 1);
    expect(resolveStrings('en').feedbackUp).toBe('Good reply');
  });

  it("the host's overrides win where they have the right type", () => {
    const t = resolveStrings('en', { send: 'Go', typing: 42 as never, errorRateLimited: (n?: number) => `Wait ${n} s` });
    expect(t.send).toBe('Go');
    expect(t.typing).toBe(en.typing);
    expect(t.errorRateLimited(3)).toBe('Wait 3 s');
  });

  it('a text function of the host that throws or returns no text falls back to the built-in one', () => {
    const t = resolveStrings('en', {
      errorRateLimited: () => {
        throw new Error('host bug');
      },
      suggestionsAvailable: () => 7 as never,
    });
    expect(t.errorRateLimited(2)).toBe(en.errorRateLimited(2));
    expect(t.suggestionsAvailable(2)).toBe(en.suggestionsAvailable(2));
  });

  it("an override for a feature's text applies once that feature's English is here", () => {
    addEnglish(feedback);
    expect(resolveStrings('en', { feedbackUp: 'Nice' }).feedbackUp).toBe('Nice');
  });

  it('an inherited key is not a text: `constructor` overrides nothing', () => {
    const t = resolveStrings('en', Object.create({ send: 'inherited' }));
    expect(t.send).toBe(en.send);
  });
});
