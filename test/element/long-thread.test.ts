import { expect } from '@open-wc/testing';
import { createKey, longThread } from '../support/server.js';
import { $, $$, input, mount, type, unmountAll, until } from '../support/element.js';

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
    await until(() => $$(el, 'article.message:not(.welcome)').length === 30, 'the earlier step');
    expect(Math.abs(anchor.getBoundingClientRect().top - before)).to.be.lessThan(2);

    // Scrolling to the top reveals the rest, a step at a time: each step keeps the view in
    // place, so the reader scrolls up again. The window lets go of the latest past 60.
    const first = () => $$(el, '.message.user [part="text"]')[0]?.textContent?.trim();
    await until(() => {
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
      return first() === 'question 0';
    }, 'the rest');
    expect($(el, '[part="load-earlier"]')).to.be.null;
    expect($$(el, 'article.message:not(.welcome)')).to.have.length(60);
    expect($$(el, 'p.found')).to.have.length(30);
    // Away from the latest, "jump to latest" is there; it brings the latest back.
    $(el, '[part="jump-to-latest"]')!.click();
    await until(() => $$(el, '.message.user [part="text"]').at(-1)?.textContent?.trim() === 'question 44', 'the latest again');
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight < 40, 'at the end again');
  });

  it('recycles its window both ways: reading a long thread up and down again keeps at most 60 messages rendered', async function () {
    this.timeout(30_000);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'An answer with **markdown**.' }] });
    const thread = await longThread(key, 60);
    const el = await mount({ 'publishable-key': key, 'thread-id': thread, 'user-id': 'u-long', style: 'height: 400px' });
    const log = $(el, '[part="log"]')!;
    const rendered = () => $$(el, 'article.message:not(.welcome)');
    const questions = () => $$(el, '.message.user [part="text"]').map((t) => t.textContent!.trim());
    let most = 0;
    const scroll = (top: number, done: () => boolean) =>
      until(
        () => {
          log.scrollTop = top < 0 ? log.scrollHeight : top;
          log.dispatchEvent(new Event('scroll'));
          most = Math.max(most, rendered().length);
          return done();
        },
        () => `rendered ${questions()[0]} … ${questions().at(-1)}`,
      );
    await scroll(0, () => questions()[0] === 'question 0');
    expect(questions().at(-1)).not.to.equal('question 59');
    // Each step down keeps the last message in place on screen.
    const last = rendered().at(-1)!;
    log.scrollTop = log.scrollHeight;
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight < 1, 'at the bottom of the window');
    const before = last.getBoundingClientRect().top;
    log.dispatchEvent(new Event('scroll'));
    await until(() => rendered().at(-1) !== last, 'a step down');
    expect(Math.abs(last.getBoundingClientRect().top - before)).to.be.lessThan(2);
    await scroll(-1, () => questions().at(-1) === 'question 59');
    expect(most, 'messages rendered at most').to.be.at.most(60);
    expect(rendered().length + $$(el, 'p.found').length).to.equal(120);
    expect(log.scrollWidth, 'hidden messages take no room').to.equal(log.clientWidth);
    expect($(el, '[part="jump-to-latest"]')).to.be.null;
  });

  it('the keys and Find in page reach every message outside the window', async function () {
    this.timeout(30_000);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'An answer.' }] });
    const thread = await longThread(key, 40);
    const el = await mount({ 'publishable-key': key, 'thread-id': thread, 'user-id': 'u-long', style: 'height: 400px' });
    const focused = () => el.shadowRoot!.activeElement as HTMLElement | null;
    const text = () => focused()?.querySelector('[part="text"]')?.textContent?.trim();
    const press = (key: string) => focused()!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
    const log = $(el, '[part="log"]')!;
    log.focus();
    press('Home');
    await until(
      () => focused() === $(el, '.welcome') && $(el, '[part="load-earlier"]') === null,
      () => `focused ${text()}`,
    );
    press('ArrowDown');
    await until(
      () => text() === 'question 0',
      () => `focused ${text()}`,
    );
    press('End');
    await until(() => text() === 'An answer.' && focused() === $$(el, 'article.message').at(-1), 'the latest');
    // From the first rendered message, ArrowUp reaches the one before it.
    const firstShown = $$(el, 'article.message:not(.welcome)')[0]!;
    firstShown.focus();
    press('ArrowUp');
    await until(() => focused() !== firstShown && focused()?.matches('article.message.agent:not(.welcome)') === true, 'the message before');
    expect(focused()!.nextElementSibling).to.not.equal(null);

    // Find in page: the browser fires beforematch at the hidden text it matched.
    press('End');
    await until(() => $$(el, 'p.found').length > 0, 'messages outside the window');
    const hidden = $$(el, 'p.found').find((p) => p.textContent === 'question 3')!;
    expect(hidden.getAttribute('hidden')).to.equal('until-found');
    hidden.dispatchEvent(new Event('beforematch', { bubbles: true }));
    await until(() => $$(el, '.message.user [part="text"]').some((t) => t.textContent!.trim() === 'question 3'), 'the found message');
    const found = $$(el, '.message.user').find((m) => m.textContent!.includes('question 3'))!;
    await until(() => {
      const box = found.getBoundingClientRect();
      const view = log.getBoundingClientRect();
      return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
    }, 'the found message on screen');
  });

  it('a question sent while reading far back brings the latest into view', async function () {
    this.timeout(30_000);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'An answer.' }] });
    const thread = await longThread(key, 40);
    const el = await mount({ 'publishable-key': key, 'thread-id': thread, 'user-id': 'u-long', style: 'height: 400px' });
    const log = $(el, '[part="log"]')!;
    await until(() => {
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
      return $$(el, '.message.user [part="text"]')[0]?.textContent?.trim() === 'question 0';
    }, 'the first message');
    await type(el, 'a new question');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    const question = () => $$(el, '.message.user').at(-1);
    await until(() => question()?.textContent?.includes('a new question') === true, 'the question rendered');
    await until(() => el.status === 'idle', 'the reply');
    await until(
      () => log.scrollHeight - log.scrollTop - log.clientHeight < 40,
      () => `scrolled to ${log.scrollTop} of ${log.scrollHeight}`,
    );
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
    // The time stamps come a moment after the messages (the formatter is made when the browser is idle).
    await until(() => $(el, '.message [part="meta"] span')?.textContent, 'the time stamps');
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
