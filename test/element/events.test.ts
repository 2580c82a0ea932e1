import { expect } from '@open-wc/testing';
import { createKey, keyStats } from '../support/server.js';
import { mount, sendByUser, unmountAll, until } from '../support/element.js';

describe('<agent-chat> events', () => {
  afterEach(unmountAll);

  it('reach the document and the window, typed (HTMLElement, Document and Window event maps)', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Typed.' }] });
    const seen: string[] = [];
    // These listeners type-check only with the event maps merged: `e.detail` is known.
    const onThread = (e: DocumentEventMap['agent-chat-thread']) => seen.push(`document thread ${e.detail.reason}`);
    const onMessage = (e: WindowEventMap['agent-chat-message']) => seen.push(`window message ${e.detail.message.text}`);
    document.addEventListener('agent-chat-thread', onThread);
    window.addEventListener('agent-chat-message', onMessage);
    try {
      const el = await mount({ 'publishable-key': key });
      el.addEventListener('agent-chat-send', (e) => seen.push(`element send ${e.detail.text}`));
      await sendByUser(el, 'Hello');
    } finally {
      document.removeEventListener('agent-chat-thread', onThread);
      window.removeEventListener('agent-chat-message', onMessage);
    }
    expect(seen).to.deep.equal(['element send Hello', 'document thread created', 'window message Typed.']);
  });

  it('a listener that sends again on every error does not make a request storm', async () => {
    const key = await createKey({ paceMs: 0, fail: [{ status: 500, times: 10_000, path: '/messages/stream' }] });
    const el = await mount({ 'publishable-key': key });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(String(args[0]));
    try {
      el.addEventListener('agent-chat-error', () => void el.send('again'));
      await el.send('first');
      // Three sends pass at once, then one a second: the loop stops on its own.
      await until(() => warnings.some((w) => w.includes('more than once a second')), 'the warning');
    } finally {
      console.warn = warn;
    }
    const streams = (await keyStats(key)).requests.filter((r) => r.path === '/messaging/v1/messages/stream');
    expect(streams.length, 'stream requests').to.be.within(3, 5);
  });
});
