import { expect } from '@open-wc/testing';
import { createKey } from '../support/server.js';
import { mount, sendByUser, unmountAll } from '../support/element.js';

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
});
