import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Message } from '../../src/client/types.js';
import { RUNNING_TURN_LIMIT_MS, type RunningTurn, readRunningTurn } from '../../src/continuity/running-turn.js';
import { TurnJournal } from '../../src/continuity/journal.js';
import { findTurn } from '../../src/continuity/await-turn.js';

const NOW = 1_800_000_000_000;
const turn = (over: Partial<RunningTurn> = {}): RunningTurn => ({
  body: { text: 'where is my order?', user_id: 'anon_1' },
  threadId: '0123456789abcdef01234567',
  lastSeq: 4,
  text: 'Let me',
  after: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  startedAt: NOW - 1000,
  ...over,
});
const msg = (id: string, type: 'user' | 'agent', text: string): Message => ({ id, text, sender: { type }, cards: [] });

describe('the stored running turn', () => {
  it('reads back what was written', () => {
    for (const written of [turn(), turn({ key: '0123456789abcdef0123456789abcdef' })]) {
      expect(readRunningTurn(JSON.parse(JSON.stringify(written)), NOW)).to.deep.equal(written);
    }
  });

  it('refuses what other code or other versions may have left', () => {
    for (const bad of [
      null,
      'turn',
      { ...turn(), body: { text: 1, user_id: 'u' } },
      { ...turn(), body: { text: 'x', user_id: 'u', thread_id: 'nope' } },
      { ...turn(), threadId: 'not-hex' },
      { ...turn(), lastSeq: -1 },
      { ...turn(), lastSeq: 1.5 },
      { ...turn(), text: null },
      { ...turn(), startedAt: NOW - RUNNING_TURN_LIMIT_MS - 1 },
      { ...turn(), startedAt: NOW + 3_600_000 },
      { ...turn(), startedAt: Number.NaN },
      // An idempotency key is a header value and joins a turn: nothing but a plain token.
      { ...turn(), key: 'short' },
      { ...turn(), key: `${'a'.repeat(30)}"\r\n` },
      { ...turn(), key: 42 },
    ]) {
      expect(readRunningTurn(bad, NOW), JSON.stringify(bad)).to.equal(null);
    }
  });

  it('never throws and returns a well-formed turn or null, whatever storage holds', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const read = readRunningTurn(value, NOW);
        if (read === null) return;
        expect(read.body.text).to.be.a('string');
        expect(Number.isSafeInteger(read.lastSeq) && read.lastSeq >= 0).to.equal(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.record({ text: fc.string(), lastSeq: fc.nat(), after: fc.option(fc.string()) }), (over) => {
        const written = turn(over);
        expect(readRunningTurn(JSON.parse(JSON.stringify(written)), NOW)).to.deep.equal(written);
      }),
      { numRuns: 100 },
    );
  });

  it('finds the turn in a transcript after the message it began after', () => {
    const before = [msg('aaaaaaaaaaaaaaaaaaaaaaaa', 'agent', 'Hi')];
    // An earlier question with the same text is not this turn.
    const earlier = [msg('1', 'user', 'where is my order?'), msg('1', 'agent', 'Shipped.'), ...before];
    expect(findTurn(earlier, turn())).to.deep.include({ state: 'absent', index: -1 });
    expect(findTurn([...earlier, msg('2', 'user', 'where is my order?')], turn())).to.deep.include({ state: 'started', index: 3 });
    expect(findTurn([...earlier, msg('2', 'user', 'where is my order?'), msg('2', 'agent', 'Let me check: here.')], turn()).state).to.equal(
      'done',
    );
    // A new conversation: anywhere in it.
    expect(findTurn([msg('2', 'user', 'where is my order?'), msg('2', 'agent', 'Let me see.')], turn({ after: null })).state).to.equal(
      'done',
    );
    // The marker fell out of the transcript (trimmed, ids re-issued): the latest asking, or the (prior + 1)-th.
    expect(findTurn([msg('2', 'user', 'where is my order?')], turn()).state).to.equal('started');
    const twice = [msg('1', 'user', 'where is my order?'), msg('1', 'agent', 'Shipped.'), msg('2', 'user', 'where is my order?')];
    expect(findTurn(twice, turn({ prior: 1 }))).to.deep.include({ state: 'started', index: 2 });
    expect(findTurn(twice.slice(0, 2), turn({ prior: 1 })).state).to.equal('absent');
    // Its reply starts as the reply shown so far did: another answer to the same question is not it.
    const asked = [...earlier, msg('2', 'user', 'where is my order?')];
    expect(findTurn([...asked, msg('2', 'agent', 'Which order?')], turn({ text: 'It is' })).state).to.equal('absent');
    expect(findTurn([...asked, msg('2', 'agent', 'It  is\non its way.')], turn({ text: 'It is\n' })).state).to.equal('done');
  });

  afterEach(() => void vi.useRealTimers());

  it('writes text and seq together, throttled, at once on pagehide, and nothing after release', () => {
    vi.useFakeTimers();
    const writes: Array<RunningTurn | null> = [];
    const journal = new TurnJournal((t) => writes.push(t));
    journal.begin(turn({ lastSeq: 0, text: '' }));
    expect(writes).to.have.length(1);
    journal.progress(1, 'a');
    journal.progress(2, 'a b');
    expect(writes).to.have.length(1);
    dispatchEvent(new Event('pagehide'));
    expect(writes.at(-1)).to.include({ lastSeq: 2, text: 'a b' });
    journal.progress(3, 'a b c');
    vi.advanceTimersByTime(249);
    expect(writes.at(-1)).to.include({ lastSeq: 2 });
    vi.advanceTimersByTime(1);
    expect(writes.at(-1)).to.include({ lastSeq: 3, text: 'a b c' });
    journal.release();
    const count = writes.length;
    journal.end();
    dispatchEvent(new Event('pagehide'));
    expect(writes).to.have.length(count);
    journal.begin(turn());
    journal.end();
    expect(writes.at(-1)).to.equal(null);
  });
});
