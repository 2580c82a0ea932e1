import { expect } from '@open-wc/testing';
import { createKey, tokenFor } from '../support/server.js';
import { $, $$, input, mount, type, unmountAll, until } from '../support/element.js';

/** A thread of `turns` turns, made over plain REST like any other client would. */
async function longThread(key: string, turns: number): Promise<string> {
  const token = await tokenFor(key);
  let threadId: string | undefined;
  for (let i = 0; i < turns; i++) {
    const res = await fetch('/messaging/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ text: `question ${i}`, user_id: 'u-long', ...(threadId ? { thread_id: threadId } : {}) }),
    });
    threadId = ((await res.json()) as { thread_id: string }).thread_id;
  }
  return threadId!;
}

describe('<agent-chat> long conversations', () => {
  afterEach(unmountAll);

  it('opens a long transcript at its latest messages and shows earlier ones on demand, keeping the view in place', async function () {
    this.timeout(30_000);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'An answer with **markdown**.' }] });
    const thread = await longThread(key, 45);
    const el = await mount({ 'publishable-key': key, 'thread-id': thread, 'user-id': 'u-long', style: 'height: 400px' });
    expect(el.messages).to.have.length(90);
    expect($$(el, 'article.message:not(.welcome)')).to.have.length(15);
    const log = $(el, '[part="log"]')!;
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight < 40, 'opens at the end');

    const button = $(el, '[part="load-earlier"]')!;
    expect(button.textContent).to.contain('75');
    const anchor = $$(el, 'article.message.user')[0]!;
    const before = anchor.getBoundingClientRect().top;
    button.click();
    await el.updateComplete;
    await new Promise((r) => requestAnimationFrame(r));
    expect($$(el, 'article.message:not(.welcome)')).to.have.length(30);
    expect(Math.abs(anchor.getBoundingClientRect().top - before)).to.be.lessThan(2);

    // Scrolling to the top reveals the rest, a step at a time: each step keeps the view in
    // place, so the reader scrolls up again.
    await until(() => {
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
      return $$(el, 'article.message:not(.welcome)').length === 90;
    }, 'the rest');
    expect($(el, '[part="load-earlier"]')).to.be.null;
    expect($$(el, '.message.user [part="text"]')[0]!.textContent!.trim()).to.equal('question 0');
  });

  /**
   * Each rendered message formats its time stamp: counting the formats counts the messages
   * a render went through. A keystroke renders none of them again, and a frame of a
   * streamed reply only the reply (#29); before, each re-rendered every shown message.
   */
  it('a keystroke renders no message again, and a streamed frame only the reply', async function () {
    this.timeout(30_000);
    const reply = Array.from({ length: 60 }, (_, i) => `Line ${i} of the answer.`).join('\n\n');
    const key = await createKey({ paceMs: 15, chunkChars: 24, replies: [{ text: 'Short.' }, { text: 'Short.' }, { text: reply }] });
    const thread = await longThread(key, 2);
    const el = await mount({ 'publishable-key': key, 'thread-id': thread, 'user-id': 'u-long' });
    await until(() => el.messages.length === 4, 'the transcript');
    await el.updateComplete;
    // `format` is a getter that returns a bound function.
    const proto = Intl.DateTimeFormat.prototype;
    const format = Object.getOwnPropertyDescriptor(proto, 'format')!;
    let formats = 0;
    Object.defineProperty(proto, 'format', {
      configurable: true,
      get(this: Intl.DateTimeFormat) {
        const bound = format.get!.call(this) as (date?: Date | number) => string;
        return (date?: Date | number) => (formats++, bound(date));
      },
    });
    try {
      await type(el, 'h');
      await type(el, 'he');
      expect(formats, 'messages rendered by two keystrokes').to.equal(0);
      await type(el, 'the last question');
      // The long reply streams in many frames: each renders the reply only.
      // Renders of the log, counted by the mutations they make (one batch per render):
      // animation frames are not counted, as a test page in the background may get none.
      let renders = 0;
      const watch = new MutationObserver(() => renders++);
      watch.observe($(el, '[part="log"]')!, { subtree: true, childList: true, characterData: true });
      formats = 0;
      ($(el, '[part="send-button"]') as HTMLButtonElement).click();
      await until(() => el.status === 'idle' && el.messages.at(-1)?.text === reply, 'the reply', 20_000);
      await el.updateComplete;
      watch.disconnect();
      expect(input(el).value).to.equal('');
      // A few renders go through every message (the question joins, the turn starts and
      // ends: 6 messages each); the others render the reply only.
      expect(renders, 'renders').to.be.above(0);
      expect(formats, `messages rendered in ${renders} renders`).to.be.below(renders + 10 * 6);
    } finally {
      Object.defineProperty(proto, 'format', format);
    }
  });
});
