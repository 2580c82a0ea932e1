import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey, forgetStorage, keyStats, serviceTranscript, storageKeyFor } from '../support/server.js';
import { $, agentTexts, collect, mount, sendByUser, unmountAll, until } from '../support/element.js';

/**
 * A reply longer than `max-reply-length` (README "Size limits"): cut there with a note under
 * it, whichever way it comes (a stream, the WebSocket session, one REST answer, a transcript),
 * and its turn is complete: no error, no resume, and the widget goes on sending. What the
 * browser keeps of the running turn and what the live region says stay bounded with it.
 */
describe('<agent-chat> a reply past max-reply-length', function () {
  this.timeout(20_000);
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  const NOTE = 'Too long to show in full';
  const noteOf = (el: AgentChat) => $(el, '.message.agent:last-of-type [part="meta"]')?.textContent ?? '';
  /** 100,000 characters of words, streamed 500 a frame; then a short reply. */
  const plan = { paceMs: 2, chunkChars: 500, replies: [{ text: 'word ', repeat: 20_000 }, { text: 'A short answer.' }] };

  for (const transport of ['sse', 'websocket', 'rest']) {
    it(`${transport}: is cut at the limit with a note, its turn complete, and the next turn runs`, async () => {
      const key = await createKey(plan);
      const el = await mount({ 'publishable-key': key, 'max-reply-length': '2000', transport });
      const errors = collect(el, 'agent-chat-error');
      await sendByUser(el, 'Tell me everything.');
      await until(
        () => el.status === 'idle' && noteOf(el).includes(NOTE),
        () => `status ${el.status}, note "${noteOf(el)}", reply ${el.messages.at(-1)?.text.length} chars`,
      );
      const reply = el.messages.at(-1)!;
      expect(reply).to.include({ state: 'done', truncated: true });
      expect(reply.text).to.have.length(2000);
      expect(agentTexts(el).at(-1)!.length).to.be.at.most(2000);
      expect($(el, '[part="error"]'), 'no notice').to.equal(null);
      expect(errors, 'no error event').to.deep.equal([]);
      // Complete, not dropped: nothing resumed. Like any finished reply, it can be regenerated.
      expect((await keyStats(key)).requests.filter((r) => r.lastEventId !== null)).to.deep.equal([]);
      await until(() => $(el, '.message.agent:last-of-type [part="regenerate-button"]'), 'regenerate');

      await sendByUser(el, 'And in short?');
      await until(
        () => agentTexts(el).at(-1) === 'A short answer.',
        () =>
          `replies: ${agentTexts(el)
            .map((t) => t.slice(0, 20))
            .join(' | ')}`,
      );
      expect(noteOf(el)).not.to.include(NOTE);
    });
  }

  it('what the browser keeps of the running turn and what the live region says stay within the limit', async () => {
    const key = await createKey(plan);
    const writes: number[] = [];
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (name: string, value: string) {
      if (name === storageKeyFor(key)) writes.push(value.length);
      return setItem.call(this, name, value);
    };
    try {
      const el = await mount({ 'publishable-key': key, 'max-reply-length': '2000', persist: 'local' });
      await sendByUser(el, 'Tell me everything.');
      await until(() => el.status === 'idle' && noteOf(el).includes(NOTE), 'the note');
      await until(() => ($(el, '.announcer')?.textContent ?? '').length > 0, 'the announcement');
      expect($(el, '.announcer')!.textContent!.length).to.be.below(400);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    expect(writes.length).to.be.above(0);
    // The reply's 2,000 characters and the rest of the state, not the 100,000 that were sent.
    expect(Math.max(...writes)).to.be.below(6_000);
    expect(JSON.parse(localStorage.getItem(storageKeyFor(key))!)).not.to.have.property('turn');
  });

  it('a transcript that holds a longer reply shows it cut, with the note', async () => {
    const key = await createKey({ ...plan, paceMs: 0, chunkChars: 50_000 });
    const first = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(first, 'Tell me everything.');
    const threadId = first.threadId!;
    // The service ends the turn on its own: then the transcript has all 100,000 characters.
    await until(async () => (await serviceTranscript(key, threadId)).length === 2, 'the turn in the transcript');
    first.remove();
    const el = await mount({ 'publishable-key': key, persist: 'local', 'max-reply-length': '3000' });
    expect(el.threadId).to.equal(threadId);
    expect(el.messages.at(-1)).to.include({ truncated: true });
    expect(el.messages.at(-1)!.text).to.have.length(3000);
    await until(
      () => noteOf(el).includes(NOTE),
      () => `note "${noteOf(el)}"`,
    );
  });

  for (const transport of ['sse', 'websocket']) {
    it(`${transport}: a frame too large to read cuts the reply where it is, and the widget goes on`, async () => {
      // 1,100,000 characters in one frame: past what a frame may hold at this limit (1,000,000).
      const key = await createKey({
        paceMs: 0,
        chunkChars: 2_000_000,
        replies: [{ text: 'x'.repeat(1000), repeat: 1100 }, { text: 'Fine.' }],
      });
      const el = await mount({ 'publishable-key': key, 'max-reply-length': '1000', transport });
      const errors = collect(el, 'agent-chat-error');
      await sendByUser(el, 'One huge frame, please.');
      await until(
        () => el.status === 'idle' && noteOf(el).includes(NOTE),
        () => `status ${el.status}, note "${noteOf(el)}"`,
      );
      expect(el.messages.at(-1)).to.include({ state: 'done', text: '', truncated: true });
      expect(errors).to.deep.equal([]);
      await sendByUser(el, 'Then something small.');
      await until(() => agentTexts(el).at(-1) === 'Fine.', 'the next reply');
    });
  }
});
