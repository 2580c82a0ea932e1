import { expect } from '@open-wc/testing';
import { createKey } from '../support/server.js';
import { mount, sendByUser, unmountAll, until } from '../support/element.js';
import { closeTabs, tab, texts } from '../support/tabs.js';

/**
 * A page that opens a conversation by its `thread-id` keeps it (#29): through its replies,
 * a reload and the other tabs of its scope, in every `persist` mode. The page's thread is
 * the conversation in use, kept as any other: the other tabs of a `persist="local"` scope
 * follow it (README "thread-id").
 */
describe('a page opened on a thread', () => {
  afterEach(() => {
    unmountAll();
    closeTabs();
  });

  /** A thread the service has, with one turn: what a page would link to. */
  async function existingThread(key: string): Promise<string> {
    const el = await mount({ 'publishable-key': key, persist: 'none' });
    await sendByUser(el, 'first question');
    const id = el.threadId!;
    unmountAll();
    return id;
  }

  for (const persist of ['local', 'session', 'none']) {
    it(`keeps it after its reply and a reload (persist="${persist}")`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
      const thread = await existingThread(key);
      const el = await mount({ 'publishable-key': key, persist, 'thread-id': thread });
      await until(() => el.messages.length === 2, 'the transcript');
      await sendByUser(el, 'second question');
      // The end of a turn looks at what the other tabs did, in the next task: after it, nothing moved.
      await new Promise((resolve) => setTimeout(resolve));
      await el.updateComplete;
      expect(el.threadId).to.equal(thread);
      expect(texts(el)).to.deep.equal(['first question', 'one', 'second question', 'two']);
      unmountAll();
      // A reload of the same page, and one without the attribute (another page of the site).
      const again = await mount({ 'publishable-key': key, persist, 'thread-id': thread });
      await until(() => again.messages.length === 4, 'the thread after a reload');
      expect(again.threadId).to.equal(thread);
    });
  }

  it('the other tabs of the scope follow it (persist="local"), and it stays through their turns', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
    const thread = await existingThread(key);
    const other = await tab(key);
    const page = await tab(key, { 'thread-id': thread });
    await until(() => other.el.threadId === thread && texts(other.el).length === 2, 'the other tab follows');
    await sendByUser(other.el, 'from the other tab');
    await until(
      () => texts(page.el).length === 4 && page.el.status === 'idle',
      () =>
        `the page shows that turn: ${JSON.stringify({
          page: [page.el.threadId, page.el.status, texts(page.el)],
          other: [other.el.threadId, other.el.status, texts(other.el)],
        })}`,
    );
    await new Promise((resolve) => setTimeout(resolve));
    expect(page.el.threadId).to.equal(thread);
    expect(other.el.threadId).to.equal(thread);
  });
});
