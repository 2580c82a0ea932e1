import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_SEQ_STEP, TurnProgress } from '../../src/client/progress.js';
import type { DataFrame } from '../../src/client/sse.js';
import { loadLexer } from '../../src/markdown/blocks.js';
import { plainSummary, renderPlainText, replyAnnouncement } from '../../src/markdown/plain.js';
import { en, type Strings } from '../../src/i18n/strings.js';
import type { ChatMessage } from '../../src/state/messages.js';

const T = 'a'.repeat(24);
const thread = (id = T) => ({ type: 'thread', data: { thread_id: id } }) as DataFrame;
const token = (seq: number, text: string) => ({ type: 'event', seq, data: { text } }) as unknown as DataFrame;

/** What one turn delivered, across every connection that carried it: each frame handed on once. */
describe('a turn across resumes', () => {
  it('hands on the thread once, tokens in order, and ignores replays up to the last seq', () => {
    const onThread = vi.fn();
    const onToken = vi.fn();
    const progress = new TurnProgress(undefined, { onThread, onToken });
    progress.apply(thread());
    progress.apply(token(1, 'a'));
    progress.apply(token(2, 'b'));
    // A resume replays everything.
    progress.apply(thread());
    progress.apply(token(1, 'a'));
    progress.apply(token(2, 'b'));
    progress.apply(token(3, 'c'));
    expect(onThread).toHaveBeenCalledTimes(1);
    expect(onToken.mock.calls).toEqual([
      ['a', 1, false],
      ['b', 2, false],
      ['c', 3, false],
    ]);
    expect(progress).toMatchObject({ threadId: T, resumable: true, lastSeq: 3 });
  });

  it('refuses a seq far past the last: every later frame would look like a replay', () => {
    const onToken = vi.fn();
    const progress = new TurnProgress(undefined, { onToken });
    progress.apply(thread());
    // The first of a turn may be anywhere: a thread counts on across its turns.
    progress.apply(token(5_000_000, 'a'));
    progress.apply(token(5_000_000 + MAX_SEQ_STEP, 'b'));
    expect(() => progress.apply(token(5_000_000 + 2 * MAX_SEQ_STEP + 1, 'c'))).toThrow(/skipped far ahead/);
    expect(onToken.mock.calls.map((c) => c[0])).toEqual(['a', 'b']);
  });

  it('refuses a second thread for one turn', () => {
    const progress = new TurnProgress(undefined, {});
    progress.apply(thread());
    expect(() => progress.apply(thread('b'.repeat(24)))).toThrow(/second thread/);
  });

  it('an earlier page delivered up to a seq: only what follows is handed on', () => {
    const onToken = vi.fn();
    const progress = new TurnProgress(T, { onToken });
    progress.resumeAt(T, 5);
    progress.apply(thread());
    progress.apply(token(5, 'old'));
    progress.apply(token(6, 'new'));
    expect(onToken.mock.calls).toEqual([['new', 6, false]]);
  });

  it('hands on nothing once stopped', () => {
    const onToken = vi.fn();
    const progress = new TurnProgress(undefined, { onToken });
    progress.stopped = true;
    progress.apply(token(1, 'x'));
    expect(onToken).not.toHaveBeenCalled();
  });

  it('a handler that throws is a bug of the caller: marked, and rethrown as it is', () => {
    const progress = new TurnProgress(undefined, {
      onToken: () => {
        throw new RangeError('caller bug');
      },
    });
    expect(() => progress.apply(token(1, 'x'))).toThrow(RangeError);
    expect(progress.handlerFailed).toBe(true);
  });
});

describe('a reply as plain text (announcements)', () => {
  // The lexer is a chunk the panel fetches with a turn (src/chunks.ts `lexer`).
  beforeAll(() => loadLexer());

  it('drops the markup, keeps the words', () => {
    expect(renderPlainText('**Bold** and [a link](https://x.example) and `code`')).toBe('Bold and a link and code');
    expect(renderPlainText('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a, b\n1, 2');
    expect(renderPlainText('- one\n- two')).toBe('one\ntwo');
  });

  it('shows raw HTML as its text, never as markup', () => {
    expect(renderPlainText('<img src=x onerror=alert(1)>')).toContain('<img');
  });

  it('a long reply is summed up at a word, with an ellipsis; a short one is whole', () => {
    expect(plainSummary('Short reply.')).toBe('Short reply.');
    const long = 'word '.repeat(400);
    const summary = plainSummary(long, 50);
    expect(summary.length).toBeLessThanOrEqual(51);
    expect(summary.endsWith('word…')).toBe(true);
  });

  it('announces a finished reply with how many products and suggested replies came with it', () => {
    const reply = (cards: number, suggestions: string[]): ChatMessage =>
      ({
        key: 'a1',
        role: 'agent',
        text: 'Here are **two** boots.',
        cards: Array.from({ length: cards }, (_, i) => ({ title: `Boot ${i}` })),
        suggestions,
        state: 'done',
      }) as unknown as ChatMessage;
    expect(replyAnnouncement(en as Strings, 'Shop bot', reply(3, ['Compare', 'Sizes']))).toBe(
      'Shop bot: Here are two boots. 3 products, 2 suggested replies',
    );
    expect(replyAnnouncement(en as Strings, 'Shop bot', reply(1, []))).toBe('Shop bot: Here are two boots. 1 product');
    expect(replyAnnouncement(en as Strings, 'Shop bot', reply(0, ['  ']))).toBe('Shop bot: Here are two boots.');
  });
});
